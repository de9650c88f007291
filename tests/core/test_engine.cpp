// The engine: a NaN stops a run with a reason, cancel stops within 200 ms keeping the curve, the same seed
// gives the same run, and the folded DEMI score equals the direct one.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include "engine/device.h"
#include "engine/run.h"
#include "method/estimator.h"
#include "method/method_registry.h"
#include "nn/mlp.h"
#include "results/grid_files.h"
#include "results/run_files.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

// A method whose estimate turns NaN at a chosen step, to check the engine's guard without relying on a
// real divergence.
class NanEstimator final : public Estimator {
 public:
  explicit NanEstimator(int nanAt) : nanAt_(nanAt) {}
  int64_t batchSize() const override { return 8; }
  StepResult trainStep(const Batch&) override {
    ++step_;
    const double v = step_ >= nanAt_ ? std::nan("") : 0.1 * step_;
    return {v, -v};
  }
  Evaluation evaluate(const Batch&) override { return {0, {}}; }

 private:
  int nanAt_, step_ = 0;
};

class NanMethod final : public MethodPlugin {
 public:
  MethodInfo info() const override {
    MethodInfo i;
    i.id = "nan-at-step";
    i.displayName = "NaN at step";
    i.params = {ParamSpec::integer("nan_at", 5, 1, 1000, "")};
    return i;
  }
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  std::unique_ptr<Estimator> create(const EstimatorContext& c) const override {
    return std::make_unique<NanEstimator>(c.params.value("nan_at").toInt());
  }
};

}  // namespace

class TestEngine : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
    registry_.addStatic(&nanMethod_);
  }

  void nanStopsTheRunWithAReason() {
    const RunSpec spec = validSpec("gaussian2", "nan-at-step", {}, 100);
    Run run(spec, registry_.find(spec.method));
    const RunResult r = runToCompletion(run);
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.reason, QString("training diverged: non-finite loss at step 5"));
    QCOMPARE(run.curve().size(), 4);  // the finite steps before it are kept
    // A failed run has no estimate: null in summary.json, empty in grid.csv, instead of a 0 that reads like one.
    const QJsonObject summary = summaryJson(spec, r);
    QVERIFY(summary.value("estimate").isNull() && summary.value("stderr").isNull());
    QTemporaryDir tmp;
    GridCell cell;
    cell.name = "nan";
    cell.spec = spec;
    QCOMPARE(writeGridCsv(tmp.filePath("grid.csv"), {CellResult{cell, r, false}}), QString());
    QFile csv(tmp.filePath("grid.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> rows = csv.readAll().trimmed().split('\n');
    const int estimate = QString(rows[0]).split(',').indexOf("estimate");
    QCOMPARE(QString(rows[1]).split(',')[estimate], QString());
    QCOMPARE(QString(rows[1]).split(',')[estimate + 1], QString());
  }

  void cancelStopsWithin200ms() {
    const RunSpec spec = validSpec("gaussian3", "demi", {{"K", 512}}, 1000000);
    Run run(spec, registry_.find(spec.method));
    run.start();
    QTRY_VERIFY_WITH_TIMEOUT(run.stepsDone() >= 3, 20000);
    QElapsedTimer t;
    t.start();
    run.cancel();
    QVERIFY(run.wait(5000));
    const qint64 ms = t.elapsed();
    qInfo("demi K=512 cancelled after %d steps in %lld ms", run.stepsDone(), ms);
    QVERIFY2(ms < 200, qPrintable(QString::number(ms)));
    const RunResult r = run.result();
    QCOMPARE(r.status, RunStatus::Cancelled);
    QVERIFY(run.curve().size() >= 3);
    QVERIFY(std::isfinite(r.estimate));  // the mean of the last training points
  }

  void sameSeedSameRun() {
    RunSpec spec = validSpec("gaussian3", "demi", {{"K", 16}}, 30);
    Run a(spec, registry_.find("demi")), b(spec, registry_.find("demi"));
    const RunResult ra = runToCompletion(a), rb = runToCompletion(b);
    QCOMPARE(ra.status, RunStatus::Finished);
    QCOMPARE(ra.estimate, rb.estimate);
    QCOMPARE(a.curve().last().loss, b.curve().last().loss);
    spec.seed = 2;
    Run c(spec, registry_.find("demi"));
    QVERIFY(runToCompletion(c).estimate != ra.estimate);
  }

  void finalEstimateHasStandardError() {
    const RunSpec spec = validSpec("gaussian2", "infonce", {{"K", 32}}, 20, 25);
    Run run(spec, registry_.find("infonce"));
    const RunResult r = runToCompletion(run);
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY(r.fromEvaluation);
    QVERIFY(r.stderror > 0 && r.stderror < 0.5);
    QCOMPARE(r.terms.size(), 1);
    QVERIFY(std::abs(r.trueMi - 2.0) < 1e-9);  // gaussian2's default target
  }

  void foldedScoreEqualsDirect() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(3);
    Mlp g(20, 100, 100, gen);
    const at::Tensor rows = at::randn({6, 100}, gen, at::kFloat);
    const at::Tensor cands = at::randn({6, 9, 20}, gen, at::kFloat);
    const at::Tensor direct = (g->forward(cands) * rows.unsqueeze(1)).sum(2);
    QVERIFY(at::allclose(g->dotWithRows(rows, cands), direct, 1e-4, 1e-4));
  }

 private:
  RunSpec validSpec(const QString& task, const QString& method, const ParamMap& params, int steps,
                    int evalBatches = 20) const {
    RunSpec spec;
    spec.task = task;
    spec.method = method;
    spec.methodParams = params;
    spec.steps = steps;
    spec.evalBatches = evalBatches;
    const QString err = validateRunSpec(&spec, registry_);
    if (!err.isEmpty()) qFatal("%s", qPrintable(err));
    return spec;
  }

  MethodRegistry registry_;
  NanMethod nanMethod_;
};

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
