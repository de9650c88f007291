// bmi's neural protocol as a named recipe (engine/recipe_options.h, issue 45) and its pieces: the held-out readings'
// tracker (best reading, early stopping), report = best as the maximum of the curve's held-out readings,
// held_out = whole as InfoNCE's log N_test reading, and the recipe filling only the keys a user left out.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/device.h"
#include "engine/held_out_tracker.h"
#include "engine/run.h"
#include "engine/run_spec.h"
#include "method/method_registry.h"
#include "results/reading_words.h"

using namespace milab;

class TestBmiRecipe : public QObject {
  Q_OBJECT
  MethodRegistry registry_;

  // A short finite-sample run on gaussian2 (dim 2, 1 nat), the flat form plus `extra`.
  RunSpec spec(const QVariantMap& extra, QString* err) const {
    QVariantMap flat{{"task", "gaussian2"}, {"dim", 2}, {"mi", 1.0}, {"method", "infonce"}, {"device", "cpu"}};
    for (auto it = extra.cbegin(); it != extra.cend(); ++it) flat.insert(it.key(), it.value());
    RunSpec s;
    *err = runSpecFromFlat(flat, registry_, &s);
    return s;
  }

  // What a user gets with no key but the task, 5,000 samples and the seed (auto: the lab's recipe).
  RunSpec defaultsSpec(const char* task, const char* method, int seed, QString* err) const {
    const QVariantMap flat{{"task", task}, {"method", method}, {"samples", 5000}, {"seed", seed}, {"device", "cpu"}};
    RunSpec s;
    *err = runSpecFromFlat(flat, registry_, &s);
    return s;
  }

 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  // Better is higher for a lower bound; two readings in a row without a new best end training (bmi's rule), and
  // the best is kept with its step and error.
  void trackerKeepsTheBestAndStopsAfterTwoWithoutOne() {
    HeldOutTracker t(HeldOutSelection::HighestReading, true);
    QVERIFY(std::isnan(t.best()));
    QVERIFY(t.observe(250, {0.3, 0.01}));
    QVERIFY(t.observe(500, {0.5, 0.02}));
    QVERIFY(t.observe(750, {std::numeric_limits<double>::quiet_NaN()}));  // skipped: not a reading
    QVERIFY(t.observe(1000, {0.4}));
    QVERIFY(!t.observe(1250, {0.45}));
    QCOMPARE(t.best(), 0.5);
    QCOMPARE(t.bestStep(), 500);
    QCOMPARE(t.bestReading().stderror, 0.02);
    QCOMPARE(t.readings(), 4);
    QCOMPARE(t.lastStep(), 1250);
    QCOMPARE(t.stoppedAt(), 1250);
    QVERIFY(heldOutReason(t, true).contains("report best: the best of 4 held-out readings, after step 500"));
    // A new best in between resets the count.
    HeldOutTracker u(HeldOutSelection::HighestReading, true);
    for (double v : {0.1, 0.05, 0.2, 0.15}) QVERIFY(u.observe(1, {v}));
    // For an upper bound (CLUB) lower is better; without early stopping nothing ends training.
    HeldOutTracker club(HeldOutSelection::LowestReading, false);
    for (double v : {0.9, 0.7, 0.8, 0.85, 0.95}) QVERIFY(club.observe(1, {v}));
    QCOMPARE(club.best(), 0.7);
    QCOMPARE(club.stoppedAt(), 0);
  }

  // A method that selects by its held-out loss (mmg, minde-c): the reading kept is the one taken where the loss was
  // lowest, whatever its value; two losses in a row no lower end training; a reading without a loss is skipped.
  void trackerSelectingByLossKeepsTheReadingAtTheLowestLoss() {
    HeldOutTracker t(HeldOutSelection::LowestLoss, true);
    QVERIFY(t.observe(250, HeldOutReading{0.9, 0.01, {{"a", 0.9}}, 2.0}));
    QVERIFY(t.observe(500, HeldOutReading{0.7, 0.02, {{"a", 0.7}}, 1.5}));  // lower reading, lower loss: the best
    QVERIFY(t.observe(750, HeldOutReading{1.2, 0.03, {{"a", 1.2}}}));       // no loss: skipped
    QVERIFY(t.observe(1000, HeldOutReading{1.1, 0.01, {{"a", 1.1}}, 1.6}));
    QVERIFY(!t.observe(1250, HeldOutReading{1.3, 0.01, {{"a", 1.3}}, 1.5}));  // equal is not lower
    QCOMPARE(t.best(), 0.7);
    QCOMPARE(t.bestReading().stderror, 0.02);
    QCOMPARE(t.bestReading().loss, 1.5);
    QCOMPARE(t.bestReading().terms.front().value, 0.7);
    QCOMPARE(t.bestStep(), 500);
    QCOMPARE(t.readings(), 4);
    QCOMPARE(t.stoppedAt(), 1250);
    const QString why = heldOutReason(t, true);
    QVERIFY2(why.contains("two held-out losses in a row no lower than the lowest, 1.5 (its reading 0.7000)"),
             qPrintable(why));
    QVERIFY2(why.contains("report best: the reading at the lowest of 4 held-out losses, after step 500"),
             qPrintable(why));
    // report = best hands back the best reading whole: its terms too, not the final one's.
    const HeldOutReading reported = reportedReading(&t, 1500, HeldOutReading{2.0, 0, {{"a", 2.0}}, 3.0}, true);
    QCOMPARE(reported.value, 0.7);
    QCOMPARE(reported.terms.front().value, 0.7);
  }

  // report = best: the estimate is the largest of the curve's held-out readings, whichever step it came at.
  void reportBestIsTheMaximumOfTheHeldOutReadings() {
    QString err;
    RunSpec s = spec({{"samples", 1024},
                      {"K", 64},
                      {"steps", 600},
                      {"eval_every", 100},
                      {"report", "best"},
                      {"seed", 2},
                      {"recipe", "none"}},
                     &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QVERIFY(s.reportBest && !s.heldOutWhole);
    Run run(s, registry_.find("infonce"));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
    double best = -std::numeric_limits<double>::infinity();
    int readings = 0, bestStep = 0;
    for (const CurvePoint& p : run.curve())
      if (!std::isnan(p.heldOut)) {
        if (p.heldOut > best) best = p.heldOut, bestStep = p.step;
        ++readings;
      }
    QCOMPARE(readings, 6);  // steps 100, 200, ..., 600
    QCOMPARE(r.estimate, best);
    QCOMPARE(readingValue(r.readings, "reported_step"), double(bestStep));  // where the window marks it
    QVERIFY2(r.reason.startsWith("report best: the best of 6 held-out readings"), qPrintable(r.reason));
  }

  // held_out = whole: InfoNCE reads the whole held-out part at once, so its reading may pass log K (the training
  // batch's cap) up to log N_test. Trained at K = 4 on 3 nats with the recipe's joint critic, it does.
  void wholeHeldOutReadsPastLogK() {
    QString err;
    RunSpec s = spec({{"mi", 3.0},
                      {"samples", 2000},
                      {"K", 4},
                      {"steps", 1500},
                      {"eval_every", 500},
                      {"held_out", "whole"},
                      {"critic", "joint"},
                      {"layers", "16,8"},
                      {"lr", 0.01},
                      {"recipe", "none"}},
                     &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    Run run(s, registry_.find("infonce"));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
    qInfo("whole held-out infonce %.3f, log K %.3f, truth %.3f", r.estimate, std::log(4.0), r.trueMi);
    QVERIFY(r.estimate > std::log(4.0));
    QVERIFY(r.estimate < std::log(1000.0));
  }

  // The recipe fills each key left out with bmi's value; a key given keeps the user's value; a method that offers
  // no joint critic or no whole reading keeps its own.
  void recipeFillsOnlyWhatIsLeftOut() {
    QString err;
    const RunSpec s = spec({{"recipe", "bmi"}}, &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QCOMPARE(s.recipe, QString("bmi"));
    QCOMPARE(s.samples, 5000);
    QCOMPARE(s.testFraction, 0.5);
    QCOMPARE(s.steps, 10000);
    QCOMPARE(s.evalEvery, 250);
    QVERIFY(s.earlyStopping && s.reportBest && s.heldOutWhole);
    QCOMPARE(s.methodParams.value("K").toInt(), 256);
    QCOMPARE(s.methodParams.value("lr").toDouble(), 0.1);
    QCOMPARE(s.methodParams.value("critic").toString(), QString("joint"));
    QCOMPARE(s.methodParams.value("layers").toString(), QString("16,8"));
    // The user's lr and samples win; the flat form written back carries the recipe and every value it set.
    const RunSpec own = spec({{"recipe", "bmi"}, {"lr", 0.01}, {"samples", 10000}}, &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QCOMPARE(own.methodParams.value("lr").toDouble(), 0.01);
    QCOMPARE(own.samples, 10000);
    QCOMPARE(runSpecToFlat(own).value("recipe").toString(), QString("bmi"));
    QCOMPARE(runSpecToFlat(own).value("report").toString(), QString("best"));
    // MINE's moving average at bmi's alpha 0.9.
    const RunSpec mine = spec({{"recipe", "bmi"}, {"method", "mine"}}, &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QCOMPARE(mine.methodParams.value("momentum").toDouble(), 0.9);
    // CLUB's model has no joint critic and reads in batches: its own settings there, held_out batches.
    const RunSpec club = spec({{"recipe", "bmi"}, {"method", "club"}}, &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QVERIFY(club.methodParams.value("critic").toString() != "joint");
    QVERIFY(!club.heldOutWhole && club.reportBest);
    // Nor bmi's lr, which is a critic's: at 0.1 CLUB's model read 25 nats of a true 1.29.
    QCOMPARE(club.methodParams.value("lr"), findSpec(registry_.find("club")->info().params, "lr")->defaultValue);
    // auto, the default: the lab's recipe (bmi's at lr 0.01 with the method's transform) on a finite set, none on fresh
    // batches; none: the lab's own defaults.
    const RunSpec finite = spec({{"samples", 1000}}, &err);
    QVERIFY(finite.reportBest && finite.heldOutWhole && finite.recipe == "lab");
    QCOMPARE(finite.steps, 10000);
    QCOMPARE(finite.methodParams.value("lr").toDouble(), 0.01);
    QCOMPARE(finite.transform, QString("tails"));
    // infonce, nwj, mine and the diffusion estimators take asinh on heavy-tailed columns only
    // (MethodInfo::labRecipeTransform, measured on the suite), unless the user names a transform; a critic not
    // measured with it keeps asinh on every column.
    for (const char* tails : {"infonce", "nwj", "mine", "mmg", "minde-c"}) {
      QCOMPARE(spec({{"samples", 1000}, {"method", tails}}, &err).transform, QString("tails"));
      QCOMPARE(spec({{"samples", 1000}, {"method", tails}, {"transform", "asinh"}}, &err).transform, QString("asinh"));
    }
    QCOMPARE(spec({{"samples", 1000}, {"method", "js"}}, &err).transform, QString("asinh"));
    QCOMPARE(s.transform, QString("none"));  // bmi's own recipe maps nothing
    const RunSpec fresh = spec({}, &err);
    QVERIFY(fresh.recipe == "none" && fresh.methodParams.value("critic").toString() == "learned");
    QCOMPARE(runSpecToFlat(fresh).contains("recipe"), false);
    const RunSpec plain = spec({{"samples", 1000}, {"recipe", "none"}}, &err);
    QVERIFY(!plain.reportBest && !plain.heldOutWhole && plain.recipe == "none");
    QCOMPARE(plain.methodParams.value("lr").toDouble(), 5e-4);
    QCOMPARE(runSpecToFlat(plain).value("recipe").toString(), QString("none"));
  }

  // The defaults on a finite set do not overfit (issue 45): on multinormal-sparse-25-25-2-2.0 at 5,000 samples,
  // infonce with no other key read -0.48 nats of a true 1.02 with the lab's fresh-batch defaults (a separable critic
  // of 100 units memorising 2,500 rows); under auto (the lab's recipe) it reads above 0.5 (0.786 since the critics take
  // `tails`, 0.692 before; 0.678 at bmi's values). Seed 1, a few seconds.
  void defaultsReadMostOfTheTruthOnTwentyFiveDimensions() {
    RunSpec s;
    const QVariantMap flat{
        {"task", "multinormal-sparse-25-25-2-2.0"}, {"method", "infonce"}, {"samples", 5000}, {"device", "cpu"}};
    const QString err = runSpecFromFlat(flat, registry_, &s);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    Run run(s, registry_.find("infonce"));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
    qInfo("infonce, defaults, 5000 samples: %.3f of %.4f (%s)", r.estimate, r.trueMi, qPrintable(r.reason));
    QVERIFY(r.estimate > 0.5);
    QVERIFY(r.estimate < r.trueMi + 0.2);
  }

  // Heavy tails (issue 45 item 7): on student-identity-2-2-1 (Student-t, one degree of freedom, truth 0.4319) bmi's
  // protocol reads far below the truth (the peer 0.223 over 5 seeds; the lab at bmi's values 0.324, -0.049 and 0.311
  // on seeds 1-3). The defaults (auto: asinh on its heavy-tailed columns, all four here; lr 0.01) read it within bmi's
  // factor 1.5, on average over seeds 1-3 (0.330 when measured; seed 1 alone reads 0.290, just short). About 15 s.
  void defaultsReadAHeavyTailedTableWithinAFactorOneAndAHalf() {
    double sum = 0, truth = 0;
    for (int seed : {1, 2, 3}) {
      QString err;
      const RunSpec s = defaultsSpec("student-identity-2-2-1", "infonce", seed, &err);
      QVERIFY2(err.isEmpty(), qPrintable(err));
      Run run(s, registry_.find("infonce"));
      const RunResult r = runToCompletion(run);
      QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
      qInfo("seed %d: %.4f", seed, r.estimate);
      sum += r.estimate;
      truth = r.trueMi;
    }
    QVERIFY2(sum / 3 >= truth / 1.5 && sum / 3 <= truth, qPrintable(QString::number(sum / 3)));
  }

  // Heavier tails in more dimensions (issue 45 item 7): on student-identity-5-5-3 (truth 0.2985) the critics cannot
  // reach bmi's factor 1.5 (0.199) from 2,500 training rows, the peer's infonce reading 0.162 and the lab's defaults
  // 0.054; the diffusion estimators with their defaults (the lab's recipe: early stopping on their held-out loss)
  // read it, seeds 1-5 when measured (transform tails): minde-c 0.272, 0.266, 0.229, 0.272, 0.287; mmg (dropout 0.35)
  // 0.323, 0.311, 0.259, 0.299, 0.301. Seed 1 here, about 10 s each.
  void diffusionDefaultsReadTheHeavierTailedTableTheCriticsMiss_data() {
    QTest::addColumn<QString>("method");
    QTest::newRow("minde-c") << QString("minde-c");
    QTest::newRow("mmg") << QString("mmg");
  }
  void diffusionDefaultsReadTheHeavierTailedTableTheCriticsMiss() {
    QFETCH(QString, method);
    QString err;
    const RunSpec s = defaultsSpec("student-identity-5-5-3", qPrintable(method), 1, &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QVERIFY(s.earlyStopping && s.reportBest);  // the lab's recipe, as a user gets it
    Run run(s, registry_.find(method));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
    qInfo("%s, defaults, student-identity-5-5-3 at 5000: %.4f of %.4f", qPrintable(method), r.estimate, r.trueMi);
    QVERIFY2(r.estimate >= r.trueMi / 1.5 && r.estimate <= r.trueMi * 1.5, qPrintable(QString::number(r.estimate)));
    QVERIFY(registry_.find(method)->info().readsHeavyTails);
    QVERIFY2(!r.warning.contains("heavy tails"), qPrintable(r.warning));  // they were measured to read it
  }

  // A method not measured to read heavy tails says so when its table has them (issue 45 item 7: what the critics and
  // KSG cannot read, the run tells its reader, and where to look): KSG (nothing to train) and infonce (50 steps)
  // on student-identity-5-5-3 warn and count the columns; KSG on a Gaussian table of the suite does not.
  void aRunOnHeavyTailsSaysWhenItsMethodWasNotMeasuredToReadThem() {
    QString err;
    for (const char* method : {"ksg", "infonce"}) {
      QVERIFY(!registry_.find(method)->info().readsHeavyTails);
      RunSpec s;
      err = runSpecFromFlat(
          {{"task", "student-identity-5-5-3"}, {"method", method}, {"samples", 2000}, {"steps", 50}, {"device", "cpu"}},
          registry_, &s);
      QVERIFY2(err.isEmpty(), qPrintable(err));
      Run run(s, registry_.find(method));
      const RunResult r = runToCompletion(run);
      QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
      QVERIFY2(r.warning.contains(QRegularExpression("heavy tails in x's [1-5] of 5 columns, y's [1-5] of 5 \\(excess "
                                                     "kurtosis above 10\\)")),
               qPrintable(r.warning));
      QVERIFY2(r.warning.contains("\"reads heavy-tailed tables\" in `milab-cli methods --long`"),
               qPrintable(r.warning));
    }
    RunSpec light;
    err = runSpecFromFlat(
        {{"task", "multinormal-dense-5-5-0.5"}, {"method", "ksg"}, {"samples", 2000}, {"device", "cpu"}}, registry_,
        &light);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    Run run(light, registry_.find("ksg"));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
    QVERIFY2(!r.warning.contains("heavy tails"), qPrintable(r.warning));
  }

  // The diffusion estimators read neither bound but select by their held-out denoising loss: bmi's recipe gives them
  // early stopping and report = best, as it gives the bounds and DoE (its densities' held-out likelihood), and
  // withholds both from SMILE, which reads neither bound and has no such loss.
  // Trained on 1,000 rows, minde-c stops on its loss and reports the held-out reading taken where it was lowest: one
  // of the curve's held-out readings.
  void recipeStopsTheDiffusionEstimatorsByTheirHeldOutLoss() {
    QString err;
    for (const char* method : {"mmg", "minde-c", "doe"}) {
      const RunSpec s = spec({{"samples", 1000}, {"method", method}, {"recipe", "bmi"}}, &err);
      QVERIFY2(err.isEmpty(), qPrintable(err));
      QVERIFY2(s.earlyStopping && s.reportBest, method);
    }
    const RunSpec smile = spec({{"samples", 1000}, {"method", "smile"}, {"recipe", "bmi"}}, &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QVERIFY(!smile.earlyStopping && !smile.reportBest);

    RunSpec s = spec({{"samples", 1000},
                      {"method", "minde-c"},
                      {"recipe", "bmi"},
                      {"steps", 4000},
                      {"eval_every", 100},
                      {"draws", 2},
                      {"seed", 3}},
                     &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    Run run(s, registry_.find("minde-c"));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
    qInfo("%s", qPrintable(r.reason));
    QVERIFY2(r.reason.contains("two held-out losses in a row no lower than the lowest"), qPrintable(r.reason));
    QVERIFY2(r.reason.contains("report best: the reading at the lowest of"), qPrintable(r.reason));
    bool onTheCurve = false;
    for (const CurvePoint& p : run.curve())
      if (std::isfinite(p.heldOut) && std::abs(p.heldOut - r.estimate) < 1e-12) onTheCurve = true;
    QVERIFY(onTheCurve);
  }

  // The refusals name their key.
  void badRecipeInputNamesTheKey() {
    QString err;
    spec({{"recipe", "bmj"}}, &err);
    QVERIFY2(err.startsWith("recipe: must be one of auto|none|bmi|lab"), qPrintable(err));
    spec({{"samples", 1000}, {"report", "max"}}, &err);
    QVERIFY2(err.startsWith("report: must be one of last|best"), qPrintable(err));
    spec({{"samples", 1000}, {"held_out", "all"}}, &err);
    QVERIFY2(err.startsWith("held_out: must be one of batches|whole"), qPrintable(err));
    spec({{"samples", 1000}, {"method", "smile"}, {"report", "best"}}, &err);
    QVERIFY2(err.startsWith("report: method smile reads neither"), qPrintable(err));
    spec({{"samples", 1000}, {"method", "club"}, {"held_out", "whole"}}, &err);
    QVERIFY2(err.startsWith("held_out: method club reads its held-out part in batches"), qPrintable(err));
  }
};

QTEST_GUILESS_MAIN(TestBmiRecipe)
#include "test_bmi_recipe.moc"
