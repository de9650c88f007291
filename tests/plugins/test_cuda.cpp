// Every plugin a few steps on a GPU, when LibTorch sees one (a CUDA LibTorch: docs/speed.md, "GPU"); skipped
// otherwise, as on CI and on Debian's CPU-only LibTorch. It checks that each method's step and evaluation run on
// the device end to end on the first task the method accepts (the samples drawn there by the device's generator,
// demi-sir resampling there): the run ends finished on cuda, or, after so few steps, refused by its own
// plausibility rule, never with an error.
#include <QtTest>

#include "engine/device.h"
#include "engine/run.h"
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
};

QTEST_GUILESS_MAIN(TestCuda)
#include "test_cuda.moc"
