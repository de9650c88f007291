// Every plugin a few steps on a GPU, when LibTorch sees one (a CUDA LibTorch: docs/speed.md, "GPU"); skipped
// otherwise, as on CI and on Debian's CPU-only LibTorch. It checks that each method's step and evaluation run on
// the device end to end on the first task the method accepts (the samples drawn there by the device's generator,
// demi-sir resampling there): the run ends finished on cuda, or, after so few steps, refused by its own
// plausibility rule, never with an error. On finite samples, each method that takes them under either recipe (the
// lab's own held-out batches, bmi's whole held-out part) ends with a finite reading and its test of independence;
// and a run read every 100 steps trains the same networks as one read every 400 (readings on their own stream).
#include <QtTest>
#include <cmath>

#include "engine/device.h"
#include "engine/run.h"
#include "engine/run_spec.h"
#include "method/method_registry.h"

using namespace milab;

class TestCuda : public QObject {
  Q_OBJECT
  MethodRegistry registry_;

 private Q_SLOTS:
  void initTestCase() {
    QString resolved;
    if (const QString err = resolveDevice("cuda", &resolved); !err.isEmpty()) QSKIP(qPrintable(err));
    initTorchRuntime();
    registry_.loadDefault();
  }

  void everyMethodStepsOnTheGpu_data() {
    QTest::addColumn<QString>("method");
    for (const QString& id : registry_.ids()) QTest::newRow(qPrintable(id)) << id;
  }

  void everyMethodStepsOnTheGpu() {
    QFETCH(QString, method);
    const MethodInfo info = registry_.find(method)->info();
    // The first task the method accepts (the vision methods were sent to gaussian2, which refuses them).
    RunSpec spec;
    QString refusal;
    for (const QString task : {"gaussian2", "gaussian3", "fashion-mnist-views"}) {
      spec = RunSpec();
      spec.task = task;
      if (task.startsWith("gaussian")) spec.taskParams = {{"dim", 5}, {"mi", 2.0}};
      spec.method = method;
      if (findSpec(info.params, "K")) spec.methodParams.insert("K", 32);
      spec.steps = 5;
      spec.evalBatches = 20;
      spec.device = "cuda";
      refusal = validateRunSpec(&spec, registry_);
      if (refusal.isEmpty()) break;
    }
    QVERIFY2(refusal.isEmpty(), qPrintable(refusal));
    Run run(spec, registry_.find(method));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished || (r.status == RunStatus::Failed && r.reason.startsWith("estimate")),
             qPrintable(r.reason));
    // A CPU-only estimator (KSG) runs where it computes and says so.
    QVERIFY2(r.device.startsWith(info.cpuOnly ? "cpu" : "cuda"), qPrintable(r.device));
  }

  void everyFiniteSampleMethodReadsOnTheGpu_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("recipe");
    for (const QString& id : registry_.ids())
      for (const char* recipe : {"none", "bmi", "lab"})
        QTest::newRow(qPrintable(id + ", recipe " + recipe)) << id << QString(recipe);
  }

  void everyFiniteSampleMethodReadsOnTheGpu() {
    QFETCH(QString, method);
    QFETCH(QString, recipe);
    RunSpec spec;
    const QString refusal = runSpecFromFlat({{"task", "gaussian2"}, {"dim", 3}, {"mi", 1.0}, {"method", method},
                                             {"samples", 1200}, {"steps", 300}, {"eval_every", 100},
                                             {"recipe", recipe}, {"device", "cuda"}},
                                            registry_, &spec);
    if (!refusal.isEmpty()) QSKIP(qPrintable("refused on a finite set, as on a CPU: " + refusal));
    Run run(spec, registry_.find(method));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished || (r.status == RunStatus::Failed && r.reason.startsWith("estimate")),
             qPrintable(r.reason));
    if (r.status != RunStatus::Finished) return;
    QVERIFY(std::isfinite(r.estimate));
    bool tested = false;
    for (const NamedValue& v : r.readings) tested = tested || (v.name == "p_value" && v.value > 0 && v.value <= 1);
    QVERIFY(tested);
  }

  // As test_finite_samples's CPU check: MINE's whole reading draws a permutation, and it must not come from the
  // generators the minibatches do. A device that is not deterministic run to run (the same run twice differs) has
  // nothing to compare: skipped, saying so.
  void howOftenAGpuRunReadsMovesNoTrainingStep_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("heldOut");
    QTest::newRow("mine, whole") << "mine" << "whole";
    QTest::newRow("nwj, whole") << "nwj" << "whole";
    QTest::newRow("infonce, batches") << "infonce" << "batches";
  }
  void howOftenAGpuRunReadsMovesNoTrainingStep() {
    QFETCH(QString, method);
    QFETCH(QString, heldOut);
    const auto losses = [&](int every) {
      RunSpec spec;
      const QString error = runSpecFromFlat(
          {{"task", "gaussian2"}, {"dim", 2}, {"mi", 1.0}, {"method", method}, {"K", 64}, {"held_out", heldOut},
           {"samples", 1000}, {"steps", 800}, {"eval_every", every}, {"recipe", "none"}, {"device", "cuda"}},
          registry_, &spec);
      if (!error.isEmpty()) qFatal("%s", qPrintable(error));
      Run run(spec, registry_.find(method));
      runToCompletion(run);
      QList<double> out;
      for (const CurvePoint& p : run.curve()) out << p.loss;
      return out;
    };
    const QList<double> every100 = losses(100);
    if (losses(100) != every100) QSKIP("the same run twice on this device differs: nothing to compare");
    QCOMPARE(losses(400), every100);
  }
};

QTEST_GUILESS_MAIN(TestCuda)
#include "test_cuda.moc"
