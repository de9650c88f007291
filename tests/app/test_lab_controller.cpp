// LabController, the window's decisions without widgets: the form's and a file's runs, the configured run's
// preview, and the history's runs back as overlays and specs.
#include <QTemporaryDir>
#include <QtTest>

#include "engine/device.h"
#include "gui/lab_controller.h"
#include "gui/result_text.h"
#include "method/method_registry.h"
#include "results/run_store.h"

using namespace milab;

namespace {
RunSpec infonceSpec(double mi = 1.0, int K = 16) {
  RunSpec spec;
  spec.task = "gaussian2";
  spec.taskParams = {{"dim", 2}, {"mi", mi}};
  spec.method = "infonce";
  spec.methodParams = {{"K", K}};
  spec.steps = 30;
  return spec;
}
}  // namespace

class TestLabController : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  void theFormsRunsAreItsRunCrossedWithMethodsAndLists() {
    const LabController controller(registry_);
    QList<RunSpec> specs;
    QCOMPARE(controller.formRuns(infonceSpec(), {"nwj"}, "seed=1,2", &specs), QString());
    QCOMPARE(specs.size(), 4);
    QStringList seen;
    for (const RunSpec& s : specs) seen << QStringLiteral("%1/%2").arg(s.method).arg(s.seed);
    seen.sort();
    QCOMPARE(seen, QStringList({"infonce/1", "infonce/2", "nwj/1", "nwj/2"}));
    specs.clear();
    const QString err = controller.formRuns(infonceSpec(1.0, 0), {}, {}, &specs);
    QVERIFY2(err.startsWith("K:"), qPrintable(err));  // the field, then the allowed range
    QVERIFY(specs.isEmpty());
  }

  void aFilesRunsAreItsCells() {
    const LabController controller(registry_);
    QList<RunSpec> specs;
    QCOMPARE(controller.fileRuns(MILAB_SOURCE_DIR "/resources/experiments/default.json", &specs), QString());
    QCOMPARE(specs.size(), 1);
    QCOMPARE(specs.first().method, QString("demi"));
    specs.clear();
    QCOMPARE(controller.fileRuns(MILAB_SOURCE_DIR "/resources/experiments/figure2-top.json", &specs), QString());
    QVERIFY2(specs.size() > 10, qPrintable(QString::number(specs.size())));
    specs.clear();
    QVERIFY(!controller.fileRuns("/nonexistent/experiment.json", &specs).isEmpty());
    QVERIFY(specs.isEmpty());
  }

  void thePreviewKnowsTargetCeilingAndOracle() {
    const LabController controller(registry_);
    const LabController::Preview p = controller.preview(infonceSpec(1.5, 16));
    QCOMPARE(p.error, QString());
    QVERIFY(p.hasOracle);
    QCOMPARE(p.known.trueMi, 1.5);
    QVERIFY(!p.known.ceilings.isEmpty());
    QCOMPARE(p.known.ceilings.first().value, std::log(16.0));
    QVERIFY(controller.preview(infonceSpec(1.5, 16), false).known.ceilings.isEmpty());
    const LabController::Preview bad = controller.preview(infonceSpec(1.5, 0));
    QVERIFY(bad.error.startsWith("K:"));
    RunSpec ksg = infonceSpec();
    ksg.method = "ksg";
    ksg.methodParams = {};
    QVERIFY(!controller.preview(ksg).hasOracle);  // no critic to swap
  }

  void storedRunsComeBackAsOverlaysAndSpecs() {
    const LabController controller(registry_);
    QTemporaryDir dir;
    const QString db = dir.filePath("history.db");
    for (int K : {8, 32}) {
      RunSpec spec = infonceSpec(1.0, K);
      QCOMPARE(validateRunSpec(&spec, registry_), QString());
      RunResult result;
      result.status = RunStatus::Finished;
      result.targetName = "I(x;y)";
      result.trueMi = 1.0;
      result.estimate = 0.9;
      result.ceilings = {{"log K", std::log(double(K))}};
      QCOMPARE(recordRun(db, spec, result, {{1, 0.5, 0.1, 0.01}, {2, 0.7, 0.1, 0.02}}, "test"), QString());
    }
    const RunStore store(db);
    const QList<StoredRun> stored = store.list();
    QCOMPARE(stored.size(), 2);
    QList<LabController::Overlay> overlays;
    QCOMPARE(controller.overlaysOf(store, {stored[0].id, stored[1].id}, &overlays), QString());
    QCOMPARE(overlays.size(), 2);
    for (const LabController::Overlay& o : overlays) {
      QVERIFY2(o.label.startsWith(QStringLiteral("#%1 infonce").arg(o.label.mid(1).section(' ', 0, 0))) &&
                   o.label.contains("K"),
               qPrintable(o.label));
      QCOMPARE(o.curve.size(), 2);
      QCOMPARE(o.spec.steps, 30);
      QCOMPARE(o.result.trueMi, 1.0);
    }
    QVERIFY(overlays[0].label != overlays[1].label);
    overlays.clear();
    QCOMPARE(controller.overlaysOf(store, {stored[0].id, 999}, &overlays), QString("history: no run 999"));
    RunSpec back;
    QCOMPARE(controller.storedSpec(store, stored[0].id, &back), QString());
    QCOMPARE(back.method, QString("infonce"));
    QVERIFY(back.methodParams.value("K").toInt() == 8 || back.methodParams.value("K").toInt() == 32);
    QCOMPARE(controller.storedSpec(store, 999, &back), QString("history: no run 999"));
  }

  // Issue 44: one reading (KSG on one finite set) has no standard error, and the result line shows none: "0.748
  // +- 0.000" read as certainty. A mean over several readings keeps its +-.
  void aReadingWithNoStandardErrorShowsNone() {
    RunSpec spec = infonceSpec();
    spec.method = "ksg";
    RunResult one;
    one.status = RunStatus::Finished;
    one.fromEvaluation = true;
    one.estimate = 0.748;
    one.stderror = 0;
    one.trueMi = 1.0;
    one.targetName = "I(x;y)";
    QVERIFY(hasEstimate(one) && !hasStandardError(one));
    const QString text = resultHtml(spec, one, nullptr);
    QVERIFY2(text.contains("estimate 0.748 nats (one reading, no standard error)") && !text.contains("&plusmn; 0.000"),
             qPrintable(text));
    RunResult mean = one;
    mean.stderror = 0.012;
    QVERIFY(hasStandardError(mean));
    QVERIFY2(resultHtml(spec, mean, nullptr).contains("estimate 0.748 &plusmn; 0.012 nats"),
             qPrintable(resultHtml(spec, mean, nullptr)));
  }

  // A finished run's reason says how it ended, in the text's colour; only a failed run's, its error, is red (issue
  // 79: "report best: ..." was printed in red like an error).
  void onlyAFailedRunsReasonIsRed() {
    RunResult r;
    r.status = RunStatus::Finished;
    r.fromEvaluation = true;
    r.estimate = 0.9;
    r.stderror = 0.01;
    r.reason = "report best: the best of 6 held-out readings, after step 500";
    QString text = resultHtml(infonceSpec(), r, nullptr);
    QVERIFY2(text.contains("<br>report best: the best of 6") && !text.contains("c0392b"), qPrintable(text));
    r.status = RunStatus::Failed;
    r.reason = "training diverged: non-finite loss at step 5";
    text = resultHtml(infonceSpec(), r, nullptr);
    QVERIFY2(text.contains("<span style='color:#c0392b'>training diverged"), qPrintable(text));
  }

  // A warning names a key as the runner's flag does; the window adds the form's label to it (issue 79: AMMI's warning
  // said order_prior where the form says "prior order r"), and leaves plain words alone.
  void warningsNameTheFormsLabels() {
    RunResult r;
    r.status = RunStatus::Finished;
    r.fromEvaluation = true;
    r.estimate = 0.9;
    r.warning = "the estimate is inflated; raise order_prior, or lower lr";
    const QString text = resultHtml(infonceSpec(), r, nullptr);
    QVERIFY2(text.contains("raise prior order r (order_prior), or lower lr"), qPrintable(text));
  }

  void dataTakesEveryRowOfTheFirstTwoColumns() {
    const RunSpec spec = LabController::onData(infonceSpec(), "/tmp/mine.csv");
    QCOMPARE(spec.task, QString("data"));
    QCOMPARE(spec.taskParams.value("file").toString(), QString("/tmp/mine.csv"));
    QCOMPARE(spec.taskParams.value("x_columns").toString(), QString("0"));
    QCOMPARE(spec.taskParams.value("y_columns").toString(), QString("1"));
    QCOMPARE(spec.samples, 0);
    QCOMPARE(spec.method, QString("infonce"));  // the method stays
  }

 private:
  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestLabController)
#include "test_lab_controller.moc"
