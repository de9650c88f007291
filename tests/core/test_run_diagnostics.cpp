// The run's diagnostics (engine/run_diagnostics.h) on runs built to trigger each flag, and silent on a clean one:
// synthetic curves and results, so each rule is checked on numbers chosen for it; then one real run that ends at
// its ceiling (InfoNCE's log K) carries the flag through Run.
#include <QtTest>
#include <cmath>

#include "engine/device.h"
#include "engine/final_reading_check.h"
#include "engine/run.h"
#include "engine/run_diagnostics.h"
#include "engine/run_spec.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "method/reading_limits.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

// A bound that trains, read on a finite set (samples 1000, steps `steps`, early stopping as asked).
struct Built {
  RunSpec spec;
  MethodInfo info;
  RunResult result;
  QVector<CurvePoint> curve;
};

// `steps` training readings: value(step) plus a deterministic +-noise alternation; held-out readings every 100 steps.
Built built(int steps, double (*value)(int), double (*heldOut)(int), bool earlyStopping = false) {
  Built b;
  b.spec.samples = 1000;
  b.spec.steps = 5000;
  b.spec.earlyStopping = earlyStopping;
  b.info.trains = true;
  b.info.lowerBound = true;
  for (int s = 1; s <= steps; ++s) {
    CurvePoint p;
    p.step = s;
    p.estimate = value(s) + (s % 2 ? 0.05 : -0.05);
    if (s % 100 == 0) p.heldOut = heldOut(s);
    b.curve << p;
  }
  b.result.stepsDone = steps;
  b.result.estimate = heldOut(steps);
  b.result.ceilings = {{"log K", 5.0}};
  return b;
}

double flat(int) { return 1.0; }
double rising(int s) { return 1.0 + s / 1000.0; }  // 1 -> 3 over 2,000 steps, the last fifth 0.4 above the one before
double peaksEarly(int s) { return s <= 500 ? 0.9 : 0.9 - (s - 500) / 1000.0; }  // 0.9 at 500, 0.4 at 1,000

QStringList names(const QList<RunFlag>& flags) {
  QStringList n;
  for (const RunFlag& f : flags) n << f.name;
  return n;
}

}  // namespace

class TestRunDiagnostics : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void aCleanRunIsSilent() {
    const Built b = built(2000, flat, flat, true);  // converged; early stopping ended it before its 5,000 steps
    QCOMPARE(names(runDiagnostics(b.spec, b.info, b.result, b.curve)), QStringList());
  }

  void eachFlagOnARunBuiltForIt_data() {
    QTest::addColumn<QString>("flag");
    QTest::newRow("still_rising") << "still_rising";
    QTest::newRow("overfitting") << "overfitting";
    QTest::newRow("early_stopping_not_triggered") << "early_stopping_not_triggered";
    QTest::newRow("at_ceiling") << "at_ceiling";
    QTest::newRow("training_diverged") << "training_diverged";
  }
  void eachFlagOnARunBuiltForIt() {
    QFETCH(QString, flag);
    Built b = flag == "still_rising"   ? built(2000, rising, flat)
              : flag == "overfitting" ? built(1000, flat, peaksEarly)
                                      : built(2000, flat, flat, flag == "early_stopping_not_triggered");
    if (flag == "early_stopping_not_triggered") b.spec.steps = 2000;  // all of them ran
    if (flag == "at_ceiling") b.result.estimate = 4.95;               // within 2% of log K = 5
    if (flag == "training_diverged") {  // losses of 2 but one of 2,500 at step 40: over a thousand times the first
      for (CurvePoint& p : b.curve) p.loss = 2;
      b.curve[39].loss = 2500;
    }
    const QList<RunFlag> flags = runDiagnostics(b.spec, b.info, b.result, b.curve);
    QCOMPARE(names(flags), QStringList{flag});
    qInfo("%s: %s", qPrintable(flag), qPrintable(flags[0].reason));
  }

  // The rules' edges: a reading 3% under its ceiling, a rise within the noise, a held-out dip of 0.02 nats.
  void justShortOfEachFlagIsSilent() {
    Built b = built(2000, flat, flat);
    b.result.estimate = 4.85;
    QCOMPARE(names(runDiagnostics(b.spec, b.info, b.result, b.curve)), QStringList());
    for (CurvePoint& p : b.curve) p.estimate += p.step > 1600 ? 0.004 : 0.0;  // under 1% + 0.005 nats
    QCOMPARE(names(runDiagnostics(b.spec, b.info, b.result, b.curve)), QStringList());
    for (CurvePoint& p : b.curve)
      if (p.step == 2000) p.heldOut = 0.98;  // 0.02 below the best, within 0.02 + 5%
    QCOMPARE(names(runDiagnostics(b.spec, b.info, b.result, b.curve)), QStringList());
    for (CurvePoint& p : b.curve) p.loss = p.step == 40 ? 1999.0 : 2.0;  // 999.5 times the first: short of 1,000
    QCOMPARE(names(runDiagnostics(b.spec, b.info, b.result, b.curve)), QStringList());
  }

  // Neither a method that is no lower bound (its training reading may fall as it learns) nor one that trains
  // nothing is read for a rising curve or overfitting.
  void onlyTrainedBoundsAreReadForTraining() {
    Built b = built(2000, rising, flat);
    b.info.lowerBound = false;
    QCOMPARE(names(runDiagnostics(b.spec, b.info, b.result, b.curve)), QStringList());
    b.info.lowerBound = true;
    b.info.trains = false;
    QCOMPARE(names(runDiagnostics(b.spec, b.info, b.result, b.curve)), QStringList());
  }

  // Through a run: the oracle InfoNCE critic at 8 nats with K 16 reads log 16 = 2.77, its ceiling.
  void aRunCarriesItsFlags() {
    initTorchRuntime();
    MethodRegistry registry;
    registry.loadDefault();
    RunSpec s;
    const QString error = runSpecFromFlat({{"task", "gaussian2"}, {"dim", 4}, {"mi", 8.0}, {"method", "infonce"},
                                           {"critic", "oracle"}, {"K", 16}, {"steps", 10}, {"device", "cpu"}},
                                          registry, &s);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    Run run(s, registry.find("infonce"));
    const RunResult r = runToCompletion(run);
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY2(names(r.flags).contains("at_ceiling"), qPrintable(names(r.flags).join(",")));
  }

  // A reading past its method's limit by less than the margin its noise allows is let through, flagged past_limit;
  // beyond the margin the run fails; within the limit, silent (SMILE read 15.95 +- 7.43 against 15, issue 80).
  void aReadingPastItsLimitWithinItsNoiseIsFlagged() {
    MethodRegistry registry;
    registry.loadDefault();
    RunSpec s;
    QCOMPARE(runSpecFromFlat({{"task", "gaussian2"}, {"dim", 2}, {"mi", 2.0}, {"method", "smile"}, {"device", "cpu"}},
                             registry, &s),
             QString());
    const MethodPlugin& smile = *registry.find("smile");
    const std::unique_ptr<TaskModel> task = buildTask("gaussian2", s.taskParams, 1);
    const double limit = smile.readingLimits(s.methodParams, *task).high;
    QCOMPARE(limit, 2 * 2.0 + 5);  // twice the target + 5 nats (method/reading_limits.h)
    const auto checked = [&](double estimate, double stderror, QString* failure) {
      RunResult r;
      r.estimate = estimate;
      r.stderror = stderror;
      r.trueMi = 2.0;
      *failure = implausibleFinalReading(smile, s, *task, false, {}, MiSchedule{}, {}, &r);
      return r.flags;
    };
    QString failure;
    const QList<RunFlag> past = checked(limit + 0.9, 0.5, &failure);  // a margin of 1.5 (3 standard errors)
    QCOMPARE(failure, QString());
    QCOMPARE(names(past), QStringList{"past_limit"});
    QVERIFY2(past.first().reason.startsWith("the estimate 9.9 lies past its limit 9 ("), qPrintable(past.first().reason));
    QVERIFY(checked(limit - 0.1, 0.5, &failure).isEmpty() && failure.isEmpty());
    QVERIFY(checked(limit + 1.6, 0.5, &failure).isEmpty());
    QVERIFY(failure.startsWith("estimate 10.6 is implausible"));
  }

  // A run whose loss blew up and whose network then read exactly 0 on every held-out batch fails, naming the blow-up
  // (minde-c at lr 1 finished at 0 +- 0 before, issue 80).
  void aCollapsedNetworksZeroFailsTheRun() {
    initTorchRuntime();
    MethodRegistry registry;
    registry.loadDefault();
    RunSpec s;
    const QString error =
        runSpecFromFlat({{"task", "multinormal-dense-2-2-0.5"}, {"method", "minde-c"}, {"lr", 1.0}, {"samples", 2000},
                         {"steps", 300}, {"seed", 1}, {"device", "cpu"}},
                        registry, &s);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    Run run(s, registry.find("minde-c"));
    const RunResult r = runToCompletion(run);
    QCOMPARE(r.status, RunStatus::Failed);
    QVERIFY2(r.reason.startsWith("estimate 0 with no spread is no reading: the training loss reached "),
             qPrintable(r.reason));
  }
};

QTEST_GUILESS_MAIN(TestRunDiagnostics)
#include "test_run_diagnostics.moc"
