// Comparison sets and the MI staircase in the engine: quick fills expand into runs labelled by what differs;
// a set saved as an experiment file expands back into the same runs; the run queue holds runs back and stops
// one alone; the staircase's per-level statistics match their closed forms, its task changes at each level,
// and its bad inputs name their key.
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "engine/device.h"
#include "engine/experiment.h"
#include "engine/run.h"
#include "engine/run_queue.h"
#include "engine/run_set.h"
#include "engine/staircase.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"
#include "time_limits.h"

using namespace milab;

class TestRunSet : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  // An experiment is one flat map of keys: a key that a method and a task (or a run setting) both declare means two
  // things, and summary.json could record only one of them (issue 30: interpolated's alpha on gaussian3 set the
  // task's split and recorded the method's default). No method key may be a task key or a run setting.
  void methodKeysNeverShadowTaskKeys() {
    QSet<QString> taken;
    for (const ParamSpec& p : runSettingSpecs()) taken.insert(p.name);
    QHash<QString, QString> taskOf;
    for (const TaskInfo& t : availableTasks())
      for (const ParamSpec& p : t.params) taskOf.insert(p.name, t.id);
    for (const QString& id : registry_.ids())
      for (const ParamSpec& p : registry_.find(id)->info().params) {
        QVERIFY2(!taskOf.contains(p.name),
                 qPrintable(QStringLiteral("method %1's key %2 is also task %3's").arg(id, p.name, taskOf.value(p.name))));
        QVERIFY2(!taken.contains(p.name), qPrintable(QStringLiteral("method %1's key %2 is a run setting").arg(id, p.name)));
      }
  }

  // The experiment summary.json records gives the same run again, with both the task's alpha and I_alpha's weight.
  void aRecordedExperimentReproducesItsRun() {
    QVariantMap flat{{"task", "gaussian3"}, {"dim", 4}, {"mi", 2}, {"alpha", 0.3}, {"method", "interpolated"},
                     {"nce_weight", 0.7}, {"K", 16}, {"steps", 5}};
    RunSpec spec;
    QCOMPARE(runSpecFromFlat(flat, registry_, &spec), QString());
    QCOMPARE(spec.taskParams.value("alpha").toDouble(), 0.3);
    QCOMPARE(spec.methodParams.value("nce_weight").toDouble(), 0.7);
    RunSpec again;
    QCOMPARE(runSpecFromFlat(runSpecToFlat(spec), registry_, &again), QString());
    QCOMPARE(again.taskParams, spec.taskParams);
    QCOMPARE(again.methodParams, spec.methodParams);
  }

  void quickFillsExpandIntoLabelledRuns() {
    QList<RunSpec> specs;
    QCOMPARE(expandRunSet(base("infonce"), {"nwj"}, "K=8,16; seed=1,2", registry_, &specs), QString());
    QCOMPARE(specs.size(), 8);
    QCOMPARE(differingKeys(specs), (QStringList{"K", "seed"}));
    QCOMPARE(runLabel(specs[0], differingKeys(specs)), QString("infonce K=8 seed=1"));
    QCOMPARE(seedGroupLabel(specs[1], differingKeys(specs)), QString("infonce K=8"));
    // A small real number reads as written, not as Qt's "1e-04".
    QCOMPARE(expandRunSet(base("infonce"), {}, "lr=0.001,0.0001", registry_, &specs), QString());
    QCOMPARE(runLabel(specs[1], differingKeys(specs)), QString("infonce lr=0.0001"));
    QCOMPARE(keyValueText("lr", 0.00012345678), QString("lr=0.00012345678"));  // no digit lost
    QCOMPARE(keyValueText("mi", 2.0), QString("mi=2"));
    QCOMPARE(keyValueText("lr", 1e-9), QString("lr=1e-09"));
    QCOMPARE(expandRunSet(base("infonce"), {"nwj"}, "K=8,16; seed=1,2", registry_, &specs), QString());
    QCOMPARE(specs.last().method, QString("nwj"));
    QCOMPARE(specs.last().methodParams.value("lr").toDouble(), 0.001);  // nwj keeps the base's shared values
    // A list applies to the methods that declare its key: order_prior multiplies ammi's runs, not infonce's.
    QCOMPARE(expandRunSet(base("infonce"), {"ammi"}, "order_prior=3,7", registry_, &specs), QString());
    QCOMPARE(specs.size(), 3);
  }

  // Issue 44: a key two methods share by name carries the base's value only where the other method takes it.
  // InfoNCE's critic "learned" was forced onto gan-dime (concatenated|separable|oracle) and refused the whole set.
  void aSharedKeyCarriesOnlyAValueTheOtherMethodTakes() {
    QList<RunSpec> specs;
    RunSpec infonce = base("infonce");
    QCOMPARE(infonce.methodParams.value("critic").toString(), QString("learned"));
    QCOMPARE(expandRunSet(infonce, {"gan-dime", "flow-mi"}, "", registry_, &specs), QString());
    QCOMPARE(specs.size(), 3);
    QCOMPARE(specs[1].method, QString("gan-dime"));
    QCOMPARE(specs[1].methodParams.value("critic").toString(), QString("concatenated"));  // its own default
    QCOMPARE(specs[1].methodParams.value("lr").toDouble(), 0.001);                        // taken: carried
    infonce.methodParams.insert("critic", "oracle");  // a value both take is carried
    QCOMPARE(expandRunSet(infonce, {"gan-dime"}, "", registry_, &specs), QString());
    QCOMPARE(specs[1].methodParams.value("critic").toString(), QString("oracle"));
  }

  void badListsNameTheField_data() {
    QTest::addColumn<QString>("vary");
    QTest::addColumn<QString>("field");
    QTest::newRow("no value") << "K="
                              << "vary:";
    QTest::newRow("commas only") << "K=,,"
                                 << "vary:";
    QTest::newRow("no equals sign") << "K 8,16"
                                    << "vary:";
    QTest::newRow("unknown key") << "zzz=1,2"
                                 << "vary:";
    QTest::newRow("twice") << "K=8;K=16"
                           << "vary:";
    QTest::newRow("method") << "method=nwj"
                            << "vary:";
    QTest::newRow("value out of range") << "K=1,8"
                                        << "K:";
  }
  void badListsNameTheField() {
    QFETCH(QString, vary);
    QFETCH(QString, field);
    QList<RunSpec> specs;
    const QString err = expandRunSet(base("infonce"), {}, vary, registry_, &specs);
    QVERIFY2(err.startsWith(field), qPrintable(err));
    QVERIFY(specs.isEmpty());
  }

  // Saved as an experiment file (shared keys on top, a methods row per run), the set expands back into itself.
  void savedSetExpandsIntoTheSameRuns() {
    QList<RunSpec> specs;
    QCOMPARE(expandRunSet(base("infonce"), {"nwj", "smile"}, "seed=1,2", registry_, &specs), QString());
    const QJsonObject file = runSetExperiment(specs);
    QCOMPARE(file.value("task").toString(), QString("gaussian2"));
    QCOMPARE(file.value("methods").toArray().size(), 6);
    QTemporaryDir tmp;
    QFile f(tmp.filePath("set.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(file).toJson());
    f.close();
    Experiment experiment;
    QCOMPARE(readExperiment(f.fileName(), &experiment), QString());
    QList<GridCell> cells;
    QCOMPARE(expandExperiment(experiment, registry_, &cells), QString());
    QCOMPARE(cells.size(), 6);
    for (int i = 0; i < 6; ++i) QCOMPARE(runSpecToFlat(cells[i].spec), runSpecToFlat(specs[i]));
  }

  // One slot: the second run waits; stopped before it starts it never starts; the first stops alone.
  void queueHoldsRunsBackAndStopsOneAlone() {
    RunQueue queue(registry_, 1);
    RunSpec spec = base("infonce");
    spec.steps = 1000000;
    const int a = queue.add(spec), b = queue.add(spec);
    QVERIFY(queue.poll().isEmpty());
    QCOMPARE(queue.status(a), RunStatus::Running);
    QCOMPARE(queue.status(b), RunStatus::Pending);
    queue.cancel(b);
    QCOMPARE(queue.status(b), RunStatus::Cancelled);
    QCOMPARE(queue.poll(), QList<int>{b});
    QCOMPARE(queue.status(a), RunStatus::Running);
    QTRY_VERIFY_WITH_TIMEOUT(queue.run(a).stepsDone() > 5, untilDoneMs());
    queue.cancel(a);
    QTRY_VERIFY_WITH_TIMEOUT(queue.run(a).isFinished(), untilDoneMs());
    // Ended but not yet reported: not done, or an owner that polls and then asks would never see this end (a
    // grid wrote such a cell as pending).
    QVERIFY(!queue.isDone());
    QCOMPARE(queue.poll(), QList<int>{a});
    QVERIFY(queue.isDone());
    QCOMPARE(queue.status(a), RunStatus::Cancelled);
    QCOMPARE(queue.run(b).stepsDone(), 0);
  }

  // Bias, variance and MSE over each level's last steps, against numbers worked by hand.
  void levelStatisticsMatchTheirClosedForm() {
    MiSchedule schedule;
    schedule.levels = {1.0, 3.0};
    schedule.stepsPerLevel = 4;
    schedule.tail = 2;
    QVector<CurvePoint> curve;
    const double values[] = {9, 9, 0.5, 1.5, 9, 9, 2.0, 3.0};  // the last two of each level count
    for (int s = 1; s <= 8; ++s) curve << CurvePoint{s, values[s - 1], 0, 0};
    const QList<LevelResult> levels = levelStatistics(curve, schedule, {1.0, 3.0});
    QCOMPARE(levels.size(), 2);
    QCOMPARE(levels[0].steps, 2);
    QCOMPARE(levels[0].mean, 1.0);
    QCOMPARE(levels[0].bias, 0.0);
    QCOMPARE(levels[0].variance, 0.25);
    QCOMPARE(levels[0].mse, 0.25);
    QCOMPARE(levels[1].mean, 2.5);
    QCOMPARE(levels[1].bias, -0.5);
    QCOMPARE(levels[1].variance, 0.25);
    QCOMPARE(levels[1].mse, 0.5);  // bias^2 + variance
    schedule.tail = 100;           // longer than a level: the whole level counts
    QCOMPARE(levelStatistics(curve, schedule, {1.0, 3.0})[0].steps, 4);
    QCOMPARE(schedule.levelOf(4), 0);
    QCOMPARE(schedule.levelOf(5), 1);
  }

  // The task changes at each level: with the oracle critic (nothing trained) InfoNCE reads each level's MI,
  // capped by log K; the run's steps are levels x steps_per_level.
  void staircaseChangesTheTaskAtEachLevel() {
    RunSpec spec = base("infonce");
    spec.taskParams.insert("mi_schedule", "0.5,2,8");
    spec.taskParams.insert("steps_per_level", 40);
    spec.taskParams.insert("level_tail", 40);
    spec.methodParams.insert("critic", "oracle");
    spec.methodParams.insert("K", 256);
    QCOMPARE(validateRunSpec(&spec, registry_), QString());
    QCOMPARE(spec.steps, 120);
    QCOMPARE(spec.taskParams.value("mi").toDouble(), 8.0);
    Run run(spec, registry_.find("infonce"));
    const RunResult r = runToCompletion(run);
    QCOMPARE(r.status, RunStatus::Finished);
    QCOMPARE(r.levels.size(), 3);
    QCOMPARE(r.levels[1].target, 2.0);
    QCOMPARE(r.stepsPerLevel, 40);
    // The oracle InfoNCE at K = 256 (log K = 5.55): near 0.5 and 2 nats, then held under log K at 8 nats.
    QVERIFY2(std::abs(r.levels[0].mean - 0.5) < 0.15, qPrintable(QString::number(r.levels[0].mean)));
    QVERIFY2(std::abs(r.levels[1].mean - 2.0) < 0.25, qPrintable(QString::number(r.levels[1].mean)));
    QVERIFY(r.levels[2].mean > r.levels[1].mean + 1.5);
    for (const CurvePoint& p : run.curve()) QVERIFY(p.estimate <= std::log(256.0) + 1e-6);
  }

  // On gaussian3 each level is the total MI; with alpha fixed, cnce's target at each level is I(x;y|x') =
  // (1 - alpha) x the level, exactly.
  void staircaseOnGaussian3TargetsEachLevel() {
    RunSpec spec;
    spec.task = "gaussian3";
    spec.taskParams = {{"dim", 4}, {"mi", 1.0}, {"alpha", 0.25}, {"mi_schedule", "2,6"}, {"steps_per_level", 3}};
    spec.method = "cnce";
    spec.methodParams = {{"K", 8}};
    spec.device = "cpu";
    QCOMPARE(validateRunSpec(&spec, registry_), QString());
    Run run(spec, registry_.find("cnce"));
    const RunResult r = runToCompletion(run);
    QCOMPARE(r.status, RunStatus::Finished);
    QCOMPARE(r.targetName, QString("I(x;y|x')"));
    QCOMPARE(r.levels.size(), 2);
    QVERIFY(std::abs(r.levels[0].target - 1.5) < 1e-9);
    QVERIFY(std::abs(r.levels[1].target - 4.5) < 1e-9);
    QVERIFY(std::abs(r.trueMi - 4.5) < 1e-9);
  }

  void staircaseBadInputNamesItsKey_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("field");
    QTest::newRow("level above 5 nats per dimension") << "mi_schedule" << QVariant("2,40") << "mi_schedule:";
    QTest::newRow("level zero") << "mi_schedule" << QVariant("0,2") << "mi_schedule:";
    QTest::newRow("not a number") << "mi_schedule" << QVariant("2,x") << "mi_schedule:";
    QTest::newRow("steps_per_level 0") << "steps_per_level" << QVariant(0) << "steps_per_level:";
    QTest::newRow("tail zero") << "level_tail" << QVariant(0) << "level_tail:";
    // base() has 4000 steps per level; a longer tail would read each level's warm-up
    QTest::newRow("tail longer than a level")
        << "level_tail" << QVariant(4001)
        << "level_tail: at most steps_per_level (4000), the steps of one level; got 4001";
  }
  void staircaseBadInputNamesItsKey() {
    QFETCH(QString, key);
    QFETCH(QVariant, value);
    QFETCH(QString, field);
    RunSpec spec = base("infonce");
    spec.taskParams.insert("mi_schedule", "1,2");
    spec.taskParams.insert(key, value);
    const QString err = validateRunSpec(&spec, registry_);
    QVERIFY2(err.startsWith(field), qPrintable(err));
  }

  // A history row is labelled by the differing keys it reads: none it leaves empty, no staircase key without a
  // staircase (the History tab listed "mi_schedule= steps_per_level=4000" for plain runs).
  // A figure labels each method's runs by the settings they differ in among themselves and by the task's settings
  // that differ; not by lr or hidden, which differ between infonce and gan-dime only by their own defaults.
  void labelsKeepWhatTellsRunsApart() {
    const auto spec = [](const QString& task, const QString& method, const ParamMap& params, int seed = 1) {
      RunSpec s;
      s.task = task;
      s.method = method;
      s.methodParams = params;
      s.seed = seed;
      return s;
    };
    const QList<RunSpec> specs{spec("gaussian2", "infonce", {{"K", 128}, {"lr", 5e-4}}),
                               spec("gaussian3", "demi", {{"K", 128}, {"lr", 5e-4}}),
                               spec("gaussian2", "gan-dime", {{"negatives", "derangement"}, {"lr", 2e-3}}),
                               spec("gaussian2", "gan-dime", {{"negatives", "permutation"}, {"lr", 2e-3}}),
                               spec("gaussian2", "gan-dime", {{"negatives", "permutation"}, {"lr", 2e-3}}, 2)};
    const QMap<QString, QStringList> keys = labelKeysByMethod(specs);
    QCOMPARE(keys.value("infonce"), QStringList({"seed", "task"}));
    QCOMPARE(keys.value("gan-dime"), QStringList({"negatives", "seed", "task"}));
    QCOMPARE(methodKeysDifferingWithin(specs).value("gan-dime"), QStringList({"negatives"}));
    QCOMPARE(methodKeysDifferingWithin(specs).value("demi"), QStringList());
    QCOMPARE(runLabel(specs[3], keys.value("gan-dime")),
             QString("gan-dime negatives=permutation seed=1 task=gaussian2"));

    // The run settings a recipe sets per method label a method's runs only where they differ among its own (issue 79:
    // "infonce early_stopping=true held_out=whole report=best transform=tails" beside "mmg"); samples, set by the
    // user, still labels every run.
    const auto finite = [](const QString& method, bool whole, const QString& transform, int samples) {
      RunSpec s;
      s.task = "gaussian2";
      s.method = method;
      s.samples = samples;
      s.heldOutWhole = whole;
      s.earlyStopping = whole;
      s.transform = transform;
      return s;
    };
    const QList<RunSpec> recipe{finite("infonce", true, "tails", 1000), finite("mmg", false, "none", 1000),
                                finite("mmg", false, "asinh", 2000)};
    const QMap<QString, QStringList> byRecipe = labelKeysByMethod(recipe);
    QCOMPARE(byRecipe.value("infonce"), QStringList({"samples"}));
    QCOMPARE(byRecipe.value("mmg"), QStringList({"samples", "transform"}));
  }

  void historyRowsReadOnlyTheirOwnKeys() {
    const QStringList keys{"K", "level_tail", "mi_schedule", "steps_per_level"};
    QCOMPARE(
        keysTheRunReads(
            keys, QVariantMap{{"K", 16}, {"mi_schedule", ""}, {"steps_per_level", 4000}, {"level_tail", QVariant()}}),
        QStringList({"K"}));
    QCOMPARE(keysTheRunReads(
                 keys, QVariantMap{{"K", 16}, {"mi_schedule", "2,4"}, {"steps_per_level", 100}, {"level_tail", 50}}),
             keys);
  }

  // level_tail's automatic value: half a level, at most 500 steps, so no level's warm-up is read.
  void automaticTailIsHalfALevelUpTo500() {
    const auto tailOf = [](int stepsPerLevel) {
      return scheduleOf({{"mi_schedule", "1,2"}, {"steps_per_level", stepsPerLevel}, {"level_tail", QVariant()}}).tail;
    };
    QCOMPARE(tailOf(60), 30);
    QCOMPARE(tailOf(1), 1);
    QCOMPARE(tailOf(4000), 500);
    QCOMPARE(scheduleOf({{"mi_schedule", "1,2"}, {"steps_per_level", 60}, {"level_tail", 20}}).tail, 20);
  }

  // On the command line a schedule's commas are its levels, not a sweep; an empty sweep is refused.
  void commandLineListsAndEmptySweeps() {
    Experiment e;
    e.base = runSpecToFlat(base("infonce"));
    applyOverrides({{"mi_schedule", "2,4,6"}, {"steps_per_level", "10"}}, &e);
    QVERIFY(e.axes.isEmpty());
    QList<GridCell> cells;
    QCOMPARE(expandExperiment(e, registry_, &cells), QString());
    QCOMPARE(cells.first().spec.steps, 30);
    // A joint critic's widths likewise (--layers 64,32 was a sweep over one layer of 64 and one of 32).
    applyOverrides({{"layers", "64,32"}}, &e);
    QVERIFY(e.axes.isEmpty());
    QCOMPARE(e.base.value("layers").toString(), QString("64,32"));
    applyOverrides({{"K", ","}}, &e);
    const QString err = expandExperiment(e, registry_, &cells);
    QVERIFY2(err.startsWith("K:"), qPrintable(err));
  }

  // A grid of methods that do not all declare K: K applies to those that do (as in the window's set), the cells
  // it would split for the others collapse into one, and a key no method of the grid declares is still refused.
  void aKeyAppliesOnlyToTheMethodsThatDeclareIt() {
    Experiment e;
    e.base = runSpecToFlat(base("infonce"));
    e.base.remove("lr");
    applyOverrides({{"method", "ksg,infonce"}, {"K", "8,64"}}, &e);
    QList<GridCell> cells;
    QCOMPARE(expandExperiment(e, registry_, &cells), QString());
    QStringList names;
    for (const GridCell& c : cells) names << c.name;
    QCOMPARE(names, (QStringList{"method-ksg", "K-8_method-infonce", "K-64_method-infonce"}));  // K varies slowest
    QVERIFY(!cells[0].spec.methodParams.contains("K"));
    QVERIFY(!cells[0].coordinates.contains("K"));
    QCOMPARE(cells[2].spec.methodParams.value("K").toInt(), 64);
    applyOverrides({{"hidden", "10"}}, &e);  // infonce declares hidden, ksg does not: fine
    QCOMPARE(expandExperiment(e, registry_, &cells), QString());
    applyOverrides({{"tau", "3"}}, &e);  // neither declares tau
    const QString err = expandExperiment(e, registry_, &cells);
    QVERIFY2(err.startsWith("tau: unknown key"), qPrintable(err));
  }

 private:
  RunSpec base(const QString& method) {
    RunSpec s;
    s.task = "gaussian2";
    s.taskParams = {{"dim", 4}, {"mi", 2.0}};
    s.method = method;
    s.methodParams = {{"K", 16}, {"lr", 0.001}};
    s.steps = 50;
    s.device = "cpu";
    if (const QString err = validateRunSpec(&s, registry_); !err.isEmpty()) qFatal("%s", qPrintable(err));
    return s;
  }

  MethodRegistry registry_;
};

QTEST_MAIN(TestRunSet)
#include "test_run_set.moc"
