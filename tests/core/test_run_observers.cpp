// The run's observers each alone (engine/run_observer.h), driven step by step as the training loop drives them,
// with scripted readings instead of a network: the staircase's switch at level boundaries, the held-out
// evaluation's schedule, early-stopping decisions and best/last report, the probe's schedule and what a cancelled run
// keeps, the list's order and sync points, and the curve's late readings. Run::execute only wires these together.
#include <QtTest>
#include <cmath>
#include <limits>

#include "engine/curve_recorder.h"
#include "engine/held_out_evaluation.h"
#include "engine/probe_schedule.h"
#include "engine/run.h"
#include "engine/run_observer.h"
#include "engine/staircase_switch.h"
#include "method/method_registry.h"
#include "method/representation_probe.h"
#include "results/reading_words.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Drives `observer` as the loop does over steps 1..steps; returns the step before which it ended training (0: never).
int drive(RunObserver& observer, int steps) {
  for (int step = 1; step <= steps; ++step)
    if (!observer.beforeStep(step)) return step;
  return 0;
}

// A held-out evaluation reading `script` in turn, recording where each reading went on the curve.
struct ScriptedHeldOut {
  QList<double> script;
  int read = 0;
  QList<QPair<int, double>> onCurve;
  std::unique_ptr<HeldOutEvaluation> make(int every, bool upperBound, bool earlyStopping) {
    return std::make_unique<HeldOutEvaluation>(
        every, upperBound ? HeldOutSelection::LowestReading : HeldOutSelection::HighestReading, earlyStopping,
        [this] {
          const double v = script.at(read++);
          return HeldOutReading{v, 0.01, {{"I_NCE", v}}};  // a one-term bound's term is its value
        },
        [this](int step, double value) { onCurve << qMakePair(step, value); });
  }
};

// A probe whose accuracy is 0.1, 0.2, ... at its successive readings.
class CountingProbe : public RepresentationProbe {
 public:
  explicit CountingProbe(int every) : every_(every) {}
  int probeEvery() const override { return every_; }
  double probeAccuracy() override { return 0.1 * ++readings_; }
  int readings() const { return readings_; }

 private:
  int every_, readings_ = 0;
};

double namedReading(const RunResult& r, const QString& name) {
  for (const NamedValue& v : r.readings)
    if (v.name == name) return v.value;
  return kNaN;
}

// Counts the steps it sees and stops training before `stopAt` (0: never); syncs every `every` steps.
class StepCounter : public RunObserver {
 public:
  StepCounter(int stopAt, int every) : stopAt_(stopAt), every_(every) {}
  bool beforeStep(int step) override {
    ++seen;
    return step != stopAt_;
  }
  int syncEvery() const override { return every_; }
  int seen = 0;

 private:
  int stopAt_, every_;
};

}  // namespace

class TestRunObservers : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { registry_.loadDefault(); }

  // Three levels of 100 steps: the estimator gets level 1's law before step 101 and level 2's before step 201, once
  // each, and nothing before step 1 (the session starts on level 0).
  void staircaseSwitchesAtLevelBoundaries() {
    MiSchedule schedule;
    schedule.levels = {2, 4, 6};
    schedule.stepsPerLevel = 100;
    std::vector<std::unique_ptr<TaskModel>> levels;
    for (double mi : schedule.levels) levels.push_back(buildTask("gaussian2", {{"dim", 4}, {"mi", mi}}, 1));
    QList<QPair<int, const TaskModel*>> switches;
    int step = 0;
    StaircaseSwitch observer(schedule, levels, [&](const TaskModel& t) { switches << qMakePair(step, &t); });
    for (step = 1; step <= 300; ++step) QVERIFY(observer.beforeStep(step));
    QCOMPARE(switches.size(), 2);
    QCOMPARE(switches[0], qMakePair(101, static_cast<const TaskModel*>(levels[1].get())));
    QCOMPARE(switches[1], qMakePair(201, static_cast<const TaskModel*>(levels[2].get())));
    QCOMPARE(observer.syncEvery(), 0);
  }

  // Read before steps 251, 501, ...: the critic those 250 steps left, put on step 250's point, and so on.
  void heldOutReadsEveryEvalEveryStepsOnThePreviousPoint() {
    ScriptedHeldOut h{{0.1, 0.2, 0.3, 0.4}};
    auto observer = h.make(250, false, false);
    QCOMPARE(drive(*observer, 1000), 0);
    QCOMPARE(h.read, 3);  // before 251, 501, 751; the reading after step 1000 is the run's final one
    QCOMPARE(h.onCurve, (QList<QPair<int, double>>{{250, 0.1}, {500, 0.2}, {750, 0.3}}));
    QCOMPARE(observer->syncEvery(), 250);
  }

  // Early stopping's decision table (bmi's rule): two readings in a row no better than the best end training, a new
  // best resets the count; for an upper bound better is lower; without early stopping training never ends early.
  void earlyStoppingDecisions() {
    struct Case {
      QList<double> readings;
      bool upperBound, earlyStopping;
      int stopsBefore;  // the step before which training ends; 0: never
    };
    const QList<Case> cases{
        {{0.1, 0.3, 0.2, 0.25, 0.9}, false, true, 1001},          // 0.2, 0.25 below 0.3: stop at the fourth reading
        {{0.1, 0.3, 0.2, 0.35, 0.3, 0.3, 9}, false, true, 1501},  // 0.35 resets the count
        {{0.1, 0.3, 0.3, 0.3, 0.3}, false, true, 1001},           // equal is not better
        {{0.1, 0.3, 0.2, 0.25, 0.9, 0.1, 0.1}, false, false, 0},  // no early stopping
        {{1.0, 0.8, 0.9, 0.85, 0.1}, true, true, 1001},           // an upper bound: 0.9 and 0.85 above 0.8
        {{1.0, 0.8, 0.7, 0.6, 0.5}, true, true, 0},               // an upper bound falling: every reading a new best
    };
    for (const Case& c : cases) {
      ScriptedHeldOut h{c.readings};
      auto observer = h.make(250, c.upperBound, c.earlyStopping);
      QCOMPARE(drive(*observer, 250 * int(c.readings.size()) + 1), c.stopsBefore);
    }
  }

  // report best: the best of the readings and the final one, its step in the reason; report last: the final
  // reading. A final reading of a step already read (an early stop) is the same network, not a new chance.
  void reportsTheBestOrTheLastReading() {
    for (const bool best : {true, false}) {
      ScriptedHeldOut h{{0.1, 0.5, 0.2, 0.3}};
      auto observer = h.make(250, false, true);
      QCOMPARE(drive(*observer, 1001), 1001);  // 0.2, 0.3 after the best 0.5
      RunResult result;
      QList<NamedValue> terms;
      observer->report(1000, true, best, HeldOutReading{0.3, 0.02, {{"I_NCE", 0.3}}}, &result, &terms);
      QCOMPARE(result.estimate, best ? 0.5 : 0.3);
      QCOMPARE(terms.size(), 1);
      QCOMPARE(terms[0].value, result.estimate);  // the reported reading's own terms
      QVERIFY2(result.reason.contains("early stopping at step 1000"), qPrintable(result.reason));
      QCOMPARE(result.reason.contains("the best of 4 held-out readings, after step 500"), best);
      QCOMPARE(readingValue(result.readings, "reported_step"), best ? 500.0 : 1000.0);
      QCOMPARE(h.onCurve.last(), qMakePair(1000, 0.3));  // the final reading on the last point
    }
    // After 1,250 steps the final reading (0.9) is new, and the best.
    ScriptedHeldOut h{{0.1, 0.5, 0.2, 0.6}};
    auto observer = h.make(250, false, true);
    QCOMPARE(drive(*observer, 1250), 0);
    RunResult result;
    QList<NamedValue> terms;
    observer->report(1250, true, true, HeldOutReading{0.9, 0.02, {}}, &result, &terms);
    QCOMPARE(result.estimate, 0.9);
    QVERIFY2(result.reason.contains("the best of 5 held-out readings, after step 1250"), qPrintable(result.reason));
  }

  // An estimator that trains nothing (KSG) reports its one reading as it is, with no reason line.
  void anEstimatorThatTrainsNothingReportsItsReading() {
    ScriptedHeldOut h{{}};
    auto observer = h.make(250, false, true);
    RunResult result;
    QList<NamedValue> terms;
    observer->report(0, false, true, HeldOutReading{0.7, 0.0, {}}, &result, &terms);
    QCOMPARE(result.estimate, 0.7);
    QVERIFY(result.reason.isEmpty());
    QVERIFY(h.onCurve.isEmpty());
  }

  // The untrained floor before training, a reading every probe_every steps on the point before, the final one at the
  // end as probe_accuracy; a cancelled run keeps its last reading.
  void probeSchedule() {
    CountingProbe probe(3);
    RunSpec spec;
    QList<QPair<int, double>> onCurve;
    ProbeSchedule observer(probe, spec, [&](int step, double v) { onCurve << qMakePair(step, v); });
    RunResult result;
    observer.trainingStarts(&result);
    QCOMPARE(namedReading(result, "probe_accuracy_untrained"), 0.1);
    QCOMPARE(drive(observer, 10), 0);
    QCOMPARE(onCurve.size(), 3);
    QCOMPARE(onCurve[0].first, 3);
    QCOMPARE(onCurve[1].first, 6);
    QCOMPARE(onCurve[2].first, 9);
    QCOMPARE(observer.syncEvery(), 3);
    observer.trainingEnded(10, &result);
    QCOMPARE(onCurve.last().first, 10);
    QCOMPARE(probe.readings(), 5);
    QCOMPARE(namedReading(result, "probe_accuracy"), 0.5);
    QVERIFY(std::isnan(namedReading(result, "probe_accuracy_supervised")));  // not asked for

    CountingProbe stopped(4);
    ProbeSchedule cancelled(stopped, spec, [](int, double) {});
    RunResult kept;
    cancelled.runCancelled(&kept);
    QVERIFY(std::isnan(namedReading(kept, "probe_accuracy")));  // nothing read yet: nothing kept
    cancelled.trainingStarts(&kept);
    drive(cancelled, 9);  // reads before steps 5 and 9
    cancelled.runCancelled(&kept);
    QCOMPARE(namedReading(kept, "probe_accuracy"), 0.3);
    QCOMPARE(kept.readings.size(), 2);  // untrained and the last; set once each
  }

  // Every observer sees every step, in order, even once one has ended training; the loop syncs at the gcd.
  void theListAsksEveryObserver() {
    RunObservers list;
    StepCounter* stops = list.add(std::make_unique<StepCounter>(5, 4));
    StepCounter* watches = list.add(std::make_unique<StepCounter>(0, 6));
    for (int step = 1; step <= 4; ++step) QVERIFY(list.beforeStep(step));
    QVERIFY(!list.beforeStep(5));
    QCOMPARE(stops->seen, 5);
    QCOMPARE(watches->seen, 5);
    QCOMPARE(list.syncEvery(), 2);
    QCOMPARE(RunObservers().syncEvery(), 0);
  }

  // A late reading lands on its step's point once (a step read twice, at an early stop and at the end, is the same
  // network), is handed out once, and a non-finite one is none.
  void lateReadingsLandOnceOnTheirPoint() {
    CurveRecorder curve;
    for (int step = 1; step <= 5; ++step) curve.append(CurvePoint{step, 0.1 * step});
    QCOMPARE(curve.takeNewPoints().size(), 5);
    QCOMPARE(curve.takeNewPoints().size(), 0);
    curve.putLateReading(3, &CurvePoint::heldOut, 0.7);
    curve.putLateReading(3, &CurvePoint::heldOut, 0.9);
    curve.putLateReading(4, &CurvePoint::probe, kNaN);
    curve.putLateReading(9, &CurvePoint::heldOut, 0.5);  // no such point
    const QVector<CurvePoint> late = curve.takeNewLate();
    QCOMPARE(late.size(), 1);
    QCOMPARE(late[0].step, 3);
    QCOMPARE(curve.points()[2].heldOut, 0.7);
    QVERIFY(std::isnan(curve.points()[3].probe));
    QVERIFY(curve.takeNewLate().isEmpty());
  }

 private:
  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestRunObservers)
#include "test_run_observers.moc"
