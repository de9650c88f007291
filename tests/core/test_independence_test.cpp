// The test of independence beside a finite-sample reading (engine/independence_test.h): its p-value's formula, its
// size under independence (the share of tables it rejects at 5% within a binomial band, for KSG, which permutes all
// rows, and for a trained critic, which permutes the held-out ys only) and its power on dependent data. Fixed
// seeds throughout: each table is one seed's draw.
#include <QtTest>
#include <cmath>
#include <vector>

#include "engine/device.h"
#include "engine/independence_test.h"
#include "engine/run.h"
#include "engine/run_spec.h"
#include "method/method_registry.h"
#include "results/reading_words.h"

using namespace milab;

namespace {

// The smallest k with P(X <= k) >= q and the largest with P(X >= k) >= q for X ~ Binomial(n, p): a two-sided band
// that a correct rate leaves with probability under 2q.
std::pair<int, int> binomialBand(int n, double p, double q) {
  std::vector<double> pmf(n + 1);
  for (int k = 0; k <= n; ++k)
    pmf[k] = std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(p) +
                      (n - k) * std::log1p(-p));
  int lo = 0, hi = n;
  for (double c = 0; lo <= n && (c += pmf[lo]) < q;) ++lo;
  for (double c = 0; hi >= 0 && (c += pmf[hi]) < q;) --hi;
  return {lo, hi};
}

}  // namespace

class TestIndependenceTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  // (1 + #{permuted >= observed}) / (1 + n): ties count against the observation, and no permutation gives NaN.
  void pValueIsPhipsonAndSmyths() {
    const std::vector<double> permuted{0.1, 0.5, 0.5, 0.9};
    QCOMPARE(permutationPValue(1.0, permuted.data(), 4), 1.0 / 5);
    QCOMPARE(permutationPValue(0.5, permuted.data(), 4), 4.0 / 5);
    QCOMPARE(permutationPValue(-1.0, permuted.data(), 4), 1.0);
    QVERIFY(std::isnan(permutationPValue(0.5, permuted.data(), 0)));
    QVERIFY(std::isnan(permutationPValue(std::nan(""), permuted.data(), 4)));
  }

  // Two-sided: distances from the median of all readings. Observed 0.0 with permuted {0.9, 1.0, 1.1, 1.2}: median
  // 1.0, the observed's distance 1.0 beats every permuted one (0.1, 0, 0.1, 0.2), p 1/5, where one-sided gives 1.
  // Observed 1.05 among them: median 1.05, distance 0, every permuted one at or above it, p 1.
  void aTwoSidedPValueCountsDistancesFromTheMedian() {
    const std::vector<double> permuted{0.9, 1.0, 1.1, 1.2};
    QCOMPARE(permutationPValue(0.0, permuted.data(), 4, true), 1.0 / 5);
    QCOMPARE(permutationPValue(0.0, permuted.data(), 4, false), 1.0);
    QCOMPARE(permutationPValue(2.0, permuted.data(), 4, true), 1.0 / 5);
    QCOMPARE(permutationPValue(1.05, permuted.data(), 4, true), 1.0);
  }

  // mmg's permuted readings lie above its reading of the pairs (a conditional score fed the wrong y widens the gap),
  // so only a two-sided test sees dependence: at 1 nat on 1,000 rows its p-value is the smallest, 1/20, while the
  // one-sided count would give 1.
  void theDiffusionEstimatorsTestOnBothSides() {
    const RunResult r = run({{"method", "mmg"}, {"samples", 1000}, {"steps", 1500}}, 1.0, 1);
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
    qInfo("mmg: reading %.3f, permuted %.3f +- %.3f, p %.3f", r.estimate, readingValue(r.readings, "permuted_mean"),
          readingValue(r.readings, "permuted_sd"), readingValue(r.readings, "p_value"));
    QVERIFY(readingValue(r.readings, "permuted_mean") > r.estimate);
    QCOMPARE(readingValue(r.readings, "p_value"), 1.0 / 20);
  }

  // On independent tables the p-value is uniform on {1/20, ..., 1}: the share at or below 0.05 is 5%, inside the
  // band a correct rate leaves with probability under 0.2%. KSG reads all rows, permuted; infonce's trained critic
  // reads its held-out part, which it never saw, permuted. A test that read the training rows instead (which the
  // critic saw) rejects far more often.
  void rejectsAtItsLevelUnderIndependence_data() {
    QTest::addColumn<QVariantMap>("flat");
    QTest::addColumn<int>("tables");
    QTest::newRow("ksg, all rows") << QVariantMap{{"method", "ksg"}, {"samples", 300}} << 200;
    QTest::newRow("infonce, the held-out part")
        << QVariantMap{{"method", "infonce"}, {"samples", 256}, {"K", 32}, {"steps", 60}, {"lr", 0.01}} << 80;
  }
  void rejectsAtItsLevelUnderIndependence() {
    QFETCH(QVariantMap, flat);
    QFETCH(int, tables);
    int rejected = 0;
    for (int seed = 1; seed <= tables; ++seed) {
      const RunResult r = run(flat, 1e-9, seed);
      QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
      QCOMPARE(readingValue(r.readings, "permutations_read"), 19.0);
      rejected += readingValue(r.readings, "p_value") <= 0.05;
    }
    const auto [lo, hi] = binomialBand(tables, 0.05, 0.001);
    qInfo("%d of %d independent tables rejected at 5%% (band %d-%d)", rejected, tables, lo, hi);
    QVERIFY2(rejected >= lo && rejected <= hi, qPrintable(QStringLiteral("%1 of %2").arg(rejected).arg(tables)));
  }

  // A critic that memorises its 128 training pairs of independent x and y (20 dimensions, 256 hidden units) reads far
  // above its permuted readings on those pairs, but the test reads the held-out part, which it never saw: no seed of
  // three rejects at the smallest p-value (all three would with probability 1 in 8,000 under a correct test).
  void aMemorisingCriticIsNotSignificant() {
    int smallest = 0;
    for (int seed = 1; seed <= 3; ++seed) {
      const RunResult r = run({{"method", "infonce"}, {"samples", 256}, {"K", 32}, {"steps", 1500}, {"hidden", 256},
                               {"dim", 20}, {"eval_every", 1500}},
                              1e-9, seed);
      QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
      qInfo("seed %d: p %.3f, held-out %.3f, permuted %.3f +- %.3f", seed, readingValue(r.readings, "p_value"),
            r.estimate, readingValue(r.readings, "permuted_mean"), readingValue(r.readings, "permuted_sd"));
      smallest += readingValue(r.readings, "p_value") <= 0.05;
    }
    QVERIFY(smallest < 3);
  }

  // Power: 0.3 nats on 300 rows is far from independence for KSG; every table rejects, its p-value 1/20.
  void rejectsDependence() {
    for (int seed = 1; seed <= 10; ++seed) {
      const RunResult r = run({{"method", "ksg"}, {"samples", 300}}, 0.3, seed);
      QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
      QCOMPARE(readingValue(r.readings, "p_value"), 1.0 / 20);
      QVERIFY(readingValue(r.readings, "permuted_mean") < r.estimate);
      QVERIFY(readingValue(r.readings, "permuted_sd") > 0);
    }
  }

  // The result line says the test in one phrase, with its units; other readings (a probe's) keep name and value.
  void theTestInWords() {
    const QList<NamedValue> readings{{"p_value", 0.05},
                                     {"permutations_read", 19},
                                     {"permuted_mean", -1.4768},
                                     {"permuted_sd", 0.0377},
                                     {"probe_accuracy", 0.8125}};
    QCOMPARE(readingsInWords(readings),
             QString(", independence test p 0.050 against 19 permutations of y, which read -1.477 +- 0.038 nats, "
                     "probe_accuracy 0.8125"));
    QVERIFY(readingsInWords(readings, true).startsWith("<br><b>independence test p 0.050"));
    QCOMPARE(readingsInWords({}), QString());
    // The interval's level as it was asked, not rounded to a level that is refused (99.99%, not 100%); in bits on
    // request (0.5 nats = 0.721 bits).
    QVERIFY(readingsInWords({{"ci_level", 0.9999}, {"ci_low", 0.5}, {"ci_high", 1.0}})
                .startsWith(", 99.99% interval 0.500 to 1.000 nats"));
    QVERIFY(readingsInWords({{"ci_level", 0.95}, {"ci_low", 0.5}, {"ci_high", 1.0}}, false, Units::Bits)
                .startsWith(", 95% interval 0.721 to 1.443 bits"));
    // One permutation has no spread, and is one.
    QCOMPARE(readingsInWords({{"p_value", 0.5}, {"permutations_read", 1}, {"permuted_mean", -0.004},
                              {"permuted_sd", std::nan("")}}),
             QString(", independence test p 0.500 against 1 permutation of y, which read -0.004 nats"));
  }

  // A table's cell after a reading: its interval when it has one, else its standard error when one was measured,
  // else nothing (issue 79: "0.748 ± 0.000" read as certainty for a reading with no spread).
  void aReadingsSpreadInACellIsWhatWasMeasured() {
    const auto number = [](double v) { return QString::number(v, 'f', 3); };
    const double none = std::nan("");
    QCOMPARE(spreadInWords(0.01, 0.5, 0.75, number), QString(" [0.500, 0.750]"));
    QCOMPARE(spreadInWords(0.0123, none, none, number), QString(" ± 0.012"));
    QCOMPARE(spreadInWords(0.0123, none, none, number, "+-"), QString(" +- 0.012"));
    QCOMPARE(spreadInWords(0, none, none, number), QString());
    QCOMPARE(spreadInWords(none, none, none, number), QString());
  }

  // A cancel while the test runs (evaluationsBegun 2: the estimate was read) keeps the estimate: the run ends
  // cancelled with the reading a run without the test reports.
  void aCancelDuringTheTestKeepsTheEstimate() {
    const QVariantMap ksg{{"method", "ksg"}, {"samples", 2000}};
    QVariantMap once = ksg;
    once.insert("permutations", 1);
    const RunResult reference = run(once, 0.3, 4);
    QVariantMap flat = ksg;
    flat.insert({{"task", "gaussian2"},
                 {"dim", 1},
                 {"mi", 0.3},
                 {"seed", 4},
                 {"device", "cpu"},
                 {"recipe", "none"},
                 {"permutations", 100000}});
    RunSpec s;
    QCOMPARE(runSpecFromFlat(flat, registry_, &s), QString());
    Run r(s, registry_.find("ksg"));
    r.start();
    QTRY_VERIFY_WITH_TIMEOUT(r.evaluationsBegun() >= 2, 600000);
    r.cancel();
    r.wait();
    const RunResult cancelled = r.result();
    QCOMPARE(cancelled.status, RunStatus::Cancelled);
    QCOMPARE(cancelled.reason, QString("cancelled during the test of independence (the estimate is kept)"));
    QCOMPARE(cancelled.estimate, reference.estimate);
  }

  // permutations: at least 1, named with its range when not.
  void permutationsOutOfRangeIsRefused() {
    RunSpec s;
    const QString error = runSpecFromFlat(
        {{"task", "gaussian2"}, {"method", "ksg"}, {"samples", 300}, {"permutations", 0}}, registry_, &s);
    QVERIFY2(error.contains("permutations") && error.contains("1"), qPrintable(error));
  }

 private:
  RunResult run(QVariantMap flat, double mi, int seed) {
    if (!flat.contains("dim")) flat.insert("dim", 1);
    flat.insert({{"task", "gaussian2"}, {"mi", mi}, {"seed", seed}, {"device", "cpu"}, {"recipe", "none"}});
    RunSpec s;
    const QString error = runSpecFromFlat(flat, registry_, &s);
    if (!error.isEmpty()) qFatal("%s", qPrintable(error));
    Run r(s, registry_.find(s.method));
    return runToCompletion(r);
  }

  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestIndependenceTest)
#include "test_independence_test.moc"
