// The bias correction by sizes (engine/size_fit.h, engine/size_extrapolation.h): the fit recovers a known a/N bias
// (exactly without noise; over 400 noisy sets, its intervals cover at their level), the consistency flag fires on
// readings built to bend away from the line and stays silent on a line, the disjoint parts of a set hold its rows
// once each, and a run extrapolates: KSG from its subsampled parts, a trained critic from its retrained halves and
// quarters, with the run's own reading untouched. Bad input names the key.
#include <QtTest>
#include <cmath>
#include <random>
#include <vector>

#include "engine/device.h"
#include "engine/reading_interval.h"
#include "engine/run.h"
#include "engine/run_diagnostics.h"
#include "engine/run_spec.h"
#include "engine/sample_set.h"
#include "engine/size_fit.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "results/reading_words.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

// The sizes a run fits: N and its parts N/2 .. N/5.
std::vector<SizeMean> sizesOf(double (*reading)(double), int64_t n) {
  std::vector<SizeMean> sizes;
  for (int k = 1; k <= 5; ++k) sizes.push_back({n / k, reading(double(n / k))});
  return sizes;
}

}  // namespace

class TestSizeExtrapolation : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  // r(n) = 1 + 50 / n read at n = 600, 300, 200, 150, 120: intercept 1 and slope 50 to rounding; the intercept's
  // error is sigma x sqrt(sum w^2), where for 1/n at 1..5 (in units of 1/N) w_k = 1/5 - 3 (k - 3) / 10 = 0.8, 0.5,
  // 0.2, -0.1, -0.4: sigma x sqrt(1.1).
  void theFitRecoversAKnownInverseNBias() {
    const SizeFit fit = fitInverseSize(sizesOf([](double n) { return 1.0 + 50.0 / n; }, 600), 0.01, 10);
    QVERIFY(std::abs(fit.value - 1.0) < 1e-9);
    QVERIFY(std::abs(fit.slope - 50.0) < 1e-6);
    QVERIFY(std::abs(fit.stderror - 0.01 * std::sqrt(0.64 + 0.25 + 0.04 + 0.01 + 0.16)) < 1e-9);
    QVERIFY(fit.consistencyP > 0.999);  // no residual at all
    QVERIFY(std::isnan(fitInverseSize({{1000, 1.0}}, 0.01, 10).value));
  }

  // 400 sets of the five sizes, each mean 1 + 50 / n plus independent N(0, 0.02) noise: the intervals at 95% (sigma
  // known, the normal quantile) hold 1 in 95% of them, inside the band 360-397 that a correct rate leaves with
  // probability under 0.2%; the chi-squared test rejects at 1% in at most 11 of them (the band at 1%: 0-11).
  void itsIntervalCoversOnNoisySizes() {
    std::mt19937_64 gen(7);
    std::normal_distribution<double> noise(0.0, 0.02);
    int covered = 0, flagged = 0, tested = 0;
    for (int set = 0; set < 400; ++set) {
      std::vector<SizeMean> sizes;
      for (int k = 1; k <= 5; ++k) sizes.push_back({600 / k, 1.0 + 50.0 / (600 / k) + noise(gen)});
      const SizeFit fit = fitInverseSize(sizes, 0.02, INFINITY);
      const ReadingInterval i = readingInterval(fit.value, fit.stderror, INFINITY, 0.95);
      covered += i.low <= 1.0 && 1.0 <= i.high;
      flagged += fit.consistencyP < kInconsistentSizesP;
      tested += std::isfinite(fit.consistencyP);
    }
    qInfo("%d of 400 intervals hold the intercept; %d flagged", covered, flagged);
    QVERIFY(covered >= 360 && covered <= 397);
    QVERIFY(tested == 400);
    QVERIFY(flagged <= 11);
  }

  // r(n) = 1 + 2e5 / n^2 bends far from any line in 1/n (0.2 nats between N and N/5 at an error of 0.005): the run
  // carrying its fit is flagged inconsistent_sizes; the same run on the line 1 + 50 / n is not.
  void theConsistencyFlagFiresOnABentTable() {
    const MethodInfo info = registry_.find("ksg")->info();
    RunSpec spec;
    spec.samples = 1000;
    const auto flagsOf = [&](double (*reading)(double)) {
      const SizeFit fit = fitInverseSize(sizesOf(reading, 1000), 0.005, 10);
      RunResult r;
      r.estimate = reading(1000);
      r.readings << NamedValue{"extrapolated", fit.value} << NamedValue{"size_consistency_p", fit.consistencyP};
      QStringList names;
      for (const RunFlag& f : runDiagnostics(spec, info, r, {})) names << f.name;
      return names;
    };
    QVERIFY(flagsOf([](double n) { return 1.0 + 2e5 / (n * n); }).contains("inconsistent_sizes"));
    QVERIFY(!flagsOf([](double n) { return 1.0 + 50.0 / n; }).contains("inconsistent_sizes"));
  }

  // The four quarters of a set hold its standardised rows once each: their training and held-out rows together are
  // the whole set's rows (compared as sorted first columns of x and y).
  void theDisjointPartsHoldEveryRowOnce() {
    const std::unique_ptr<TaskModel> task = buildTask("gaussian2", {{"dim", 1}, {"mi", 0.5}}, 1);
    const SampleSet whole(*task->sampler(c10::kCPU), 400, 0.5, 3);
    std::vector<at::Tensor> xs, ys;
    for (int index = 0; index < 4; ++index) {
      const SampleSet part(*task->sampler(c10::kCPU), 400, 0.5, 3, false, ColumnTransform::None, false,
                           RowPart{4, index});
      QCOMPARE(part.trainingRows() + part.heldOutRows(), int64_t(100));
      xs.push_back(part.all().x);
      ys.push_back(part.all().y);
    }
    const auto sorted = [](const at::Tensor& t) { return std::get<0>(t.select(1, 0).sort()); };
    QVERIFY(at::equal(sorted(at::cat(xs)), sorted(whole.all().x)));
    QVERIFY(at::equal(sorted(at::cat(ys)), sorted(whole.all().y)));
  }

  // KSG extrapolates from the parts its spread already read; its own reading is the run's without extrapolate.
  void aKsgRunExtrapolatesAtNoExtraReading() {
    const RunResult plain = run({{"method", "ksg"}, {"samples", 1000}}, false);
    const RunResult fitted = run({{"method", "ksg"}, {"samples", 1000}}, true);
    QCOMPARE(fitted.status, RunStatus::Finished);
    QCOMPARE(fitted.estimate, plain.estimate);
    QCOMPARE(fitted.stderror, plain.stderror);
    const double at = readingValue(fitted.readings, "extrapolated");
    qInfo("ksg: %.4f, extrapolated %.4f +- %.4f, sizes p %.2f", fitted.estimate, at,
          readingValue(fitted.readings, "extrapolated_se"), readingValue(fitted.readings, "size_consistency_p"));
    QVERIFY(std::isfinite(at) && std::abs(at - fitted.estimate) < 0.2);
    QVERIFY(readingValue(fitted.readings, "extrapolated_low") < at &&
            at < readingValue(fitted.readings, "extrapolated_high"));
    QVERIFY(std::isfinite(readingValue(fitted.readings, "size_consistency_p")));
    QVERIFY(std::isnan(readingValue(plain.readings, "extrapolated")));
  }

  // A trained critic trains again on its halves and quarters: the run's reading is the one without extrapolate (the
  // parts train after it, on their own streams), its standard error becomes the larger of the retrained parts'
  // spread (both shares: 4 degrees of freedom) and its critic-fixed one (10), and its interval is t of the chosen.
  void aTrainedRunExtrapolatesFromRetrainedParts() {
    const QVariantMap flat{{"method", "infonce"}, {"samples", 2000}, {"K", 64}, {"steps", 400}, {"eval_every", 100}};
    const RunResult plain = run(flat, false);
    const RunResult fitted = run(flat, true);
    QVERIFY2(fitted.status == RunStatus::Finished, qPrintable(fitted.reason));
    QCOMPARE(fitted.estimate, plain.estimate);
    const double retrained = readingValue(fitted.readings, "retrained_se");
    qInfo("infonce: %.4f +- %.4f (critic fixed %.4f), extrapolated %.4f +- %.4f, sizes p %.2f", fitted.estimate,
          retrained, plain.stderror, readingValue(fitted.readings, "extrapolated"),
          readingValue(fitted.readings, "extrapolated_se"), readingValue(fitted.readings, "size_consistency_p"));
    QVERIFY(retrained > 0);
    QCOMPARE(fitted.stderror, std::max(retrained, plain.stderror));
    const double df = retrained >= plain.stderror ? 4 : 10;
    QVERIFY(std::abs(readingValue(fitted.readings, "ci_high") - fitted.estimate -
                     twoSidedQuantile(0.95, df) * fitted.stderror) < 1e-9);
    QVERIFY(std::isfinite(readingValue(fitted.readings, "extrapolated")));

    // Parts trained 200 steps read alike (a retrained spread of 0.005 where the critic-fixed one is 0.030): the
    // reading keeps its critic-fixed error and interval, not a sixth of them.
    const QVariantMap shortly{{"method", "infonce"}, {"samples", 2000}, {"K", 64}, {"steps", 200}, {"seed", 1}};
    const RunResult shortPlain = run(shortly, false), shortFitted = run(shortly, true);
    QVERIFY(readingValue(shortFitted.readings, "retrained_se") < shortPlain.stderror);
    QCOMPARE(shortFitted.stderror, shortPlain.stderror);
    QCOMPARE(readingValue(shortFitted.readings, "ci_high"), readingValue(shortPlain.readings, "ci_high"));
  }

  // A cancel while the parts train (evaluationsBegun 3) keeps the run's estimate: cancelled, with the reading a run
  // without extrapolate reports. Without early stopping (recipe none) each of the six parts trains the run's 3,000
  // steps, seconds of work against the 50 ms in which the cancel follows the sign.
  void aCancelDuringTheExtrapolationKeepsTheEstimate() {
    const QVariantMap flat{{"method", "infonce"}, {"samples", 2000}, {"K", 64}, {"steps", 3000}, {"recipe", "none"}};
    const RunResult plain = run(flat, false);
    QVariantMap parts = flat;
    parts.insert({{"task", "gaussian2"},
                  {"dim", 1},
                  {"mi", 0.5},
                  {"seed", 2},
                  {"device", "cpu"},
                  {"permutations", 1},
                  {"extrapolate", true}});
    RunSpec s;
    QCOMPARE(runSpecFromFlat(parts, registry_, &s), QString());
    Run r(s, registry_.find("infonce"));
    r.start();
    QTRY_VERIFY_WITH_TIMEOUT(r.evaluationsBegun() >= 3, 600000);
    r.cancel();
    r.wait();
    const RunResult cancelled = r.result();
    QCOMPARE(cancelled.status, RunStatus::Cancelled);
    QCOMPARE(cancelled.reason, QString("cancelled during the size extrapolation (the estimate is kept)"));
    QCOMPARE(cancelled.estimate, plain.estimate);
  }

  // Too few rows for the sizes: named with what is needed.
  void tooFewRowsForTheSizesAreRefused() {
    RunSpec s;
    QString error = runSpecFromFlat({{"task", "gaussian2"}, {"method", "ksg"}, {"samples", 120}, {"extrapolate", true}},
                                    registry_, &s);
    QVERIFY2(error.startsWith("extrapolate:") && error.contains("150"), qPrintable(error));
    error = runSpecFromFlat(
        {{"task", "gaussian2"}, {"method", "infonce"}, {"samples", 600}, {"K", 128}, {"extrapolate", true}}, registry_,
        &s);
    QVERIFY2(error.startsWith("extrapolate:") && error.contains("1024"), qPrintable(error));
    QCOMPARE(runSpecFromFlat(
                 {{"task", "gaussian2"}, {"method", "infonce"}, {"samples", 1024}, {"K", 128}, {"extrapolate", true}},
                 registry_, &s),
             QString());
  }

 private:
  RunResult run(QVariantMap flat, bool extrapolate) {
    if (!flat.contains("seed")) flat.insert("seed", 2);
    flat.insert({{"task", "gaussian2"},
                 {"dim", 1},
                 {"mi", 0.5},
                 {"device", "cpu"},
                 {"permutations", 1},
                 {"extrapolate", extrapolate}});
    RunSpec s;
    const QString error = runSpecFromFlat(flat, registry_, &s);
    if (!error.isEmpty()) qFatal("%s", qPrintable(error));
    Run r(s, registry_.find(s.method));
    return runToCompletion(r);
  }

  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestSizeExtrapolation)
#include "test_size_extrapolation.moc"
