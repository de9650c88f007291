// The bound functions against direct, loop-by-loop transcriptions of the papers' formulas in double precision
// on small random score matrices, plus the Gaussian KL against Monte Carlo.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QtTest>
#include <cmath>
#include <array>
#include <stdexcept>
#include <vector>

#include "engine/device.h"
#include "nn/bounds.h"
#include "nn/derangement.h"
#include "nn/every_pair_scores.h"
#include "tasks/task_sampler.h"

using namespace milab;

namespace {

at::Tensor randomScores(int64_t rows, int64_t cols, uint64_t seed) {
  at::Generator gen = at::detail::createCPUGenerator(seed);
  return at::randn({rows, cols}, gen, at::TensorOptions().dtype(at::kDouble)) * 2.0;
}

double at2(const at::Tensor& t, int64_t i, int64_t j) { return t[i][j].item<double>(); }

}  // namespace

class TestBounds : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The lab's one intra-op thread on this thread too, so the suite computes the same digits on any machine.
  void initTestCase() { initTorchRuntime(); }
  void positiveFirstPutsTheDiagonalFirst() {
    const at::Tensor s = at::arange(9, at::kDouble).view({3, 3});  // row i: 3i, 3i+1, 3i+2
    const at::Tensor p = positiveFirst(s);
    const std::vector<std::vector<double>> expected{{0, 1, 2}, {4, 3, 5}, {8, 6, 7}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) QCOMPARE(at2(p, i, j), expected[i][j]);
    // The gather that replaced masked_select (a host read of the mask's count every step): the same values and
    // gradients to the bit, through the IS bound that reads it, at n = 2 and 65.
    for (int64_t n : {2, 65}) {
      at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(n);
      const at::Tensor scores = at::randn({n, n}, gen, at::kFloat);
      const at::Tensor a = scores.clone().requires_grad_(), b = scores.clone().requires_grad_();
      const at::Tensor masked =
          at::cat({b.diagonal().unsqueeze(1), b.masked_select(~at::eye(n, at::kBool)).view({n, n - 1})}, 1);
      QVERIFY(at::equal(positiveFirst(a), masked));
      importanceSampledNce(positiveFirst(a), positiveFirst(a) * 0.5).backward();
      importanceSampledNce(masked, masked * 0.5).backward();
      QVERIFY(at::equal(a.grad(), b.grad()));
    }
  }

  // DEMI eq. 9 with w_k = e^psi_k / sum_{m>=2} e^psi_m.
  void importanceSampledNceMatchesEquation9() {
    const int64_t B = 5, C = 7;
    const at::Tensor phi = randomScores(B, C, 1), psi = randomScores(B, C, 2);
    double sum = 0;
    for (int64_t i = 0; i < B; ++i) {
      double norm = 0, weighted = 0;
      for (int64_t k = 1; k < C; ++k) norm += std::exp(at2(psi, i, k));
      for (int64_t k = 1; k < C; ++k) weighted += std::exp(at2(psi, i, k)) / norm * std::exp(at2(phi, i, k));
      const double positive = std::exp(at2(phi, i, 0));
      sum += std::log(positive / ((positive + (C - 1) * weighted) / C));
    }
    QVERIFY(std::abs(importanceSampledNce(phi, psi).item<double>() - sum / B) < 1e-12);
    QVERIFY(importanceSampledNce(phi, psi).item<double>() <= std::log(double(C)));
  }

  // With uniform weights (constant psi), I_IS is InfoNCE over the same candidates.
  void importanceSampledNceWithFlatWeightsIsNce() {
    const at::Tensor phi = randomScores(6, 9, 3);
    const double is = importanceSampledNce(phi, at::zeros_like(phi)).item<double>();
    QVERIFY(std::abs(is - firstColumnNce(phi).item<double>()) < 1e-12);
  }

  // Poole et al.'s I_alpha, written out: baselines mix the leave-one-out mean with e^{l(x_i)}.
  void interpolatedBoundMatchesItsDefinition() {
    const int64_t n = 6;
    const at::Tensor s = randomScores(n, n, 4), l = randomScores(1, n, 5).squeeze(0);
    for (double alpha : {0.01, 0.3, 0.99}) {
      auto baseline = [&](int64_t i, int64_t j) {  // log(alpha mean_{k != j} e^{s_ik} + (1 - alpha) e^{l_i})
        double loo = 0;
        for (int64_t k = 0; k < n; ++k)
          if (k != j) loo += std::exp(at2(s, i, k)) / (n - 1);
        return std::log(alpha * loo + (1 - alpha) * std::exp(l[i].item<double>()));
      };
      double joint = 0, marginal = 0;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
          if (i == j) continue;
          joint += (at2(s, i, i) - baseline(i, j)) / (n * (n - 1));
          marginal += std::exp(at2(s, i, j) - baseline(i, i)) / (n * (n - 1));
        }
      const double expected = 1 + joint - marginal;
      const double got = interpolatedBound(s, l, alpha).item<double>();
      QVERIFY2(std::abs(got - expected) < 1e-9,
               qPrintable(QString("alpha %1: %2 vs %3").arg(alpha).arg(got).arg(expected)));
    }
  }

  // At large MI a positive beats its negatives by tens of nats: the leave-one-out baseline of the positive's own
  // column must still be the mean of the negatives, in float32 as in a double transcription. (A clamp of
  // s_ii - lse_i below 0 read 2.731 for 2.797 at a gap of 20 nats.) The gradient stays finite.
  void interpolatedBoundHoldsAtScoreGapsOfTensOfNats() {
    const int64_t n = 16;
    for (double gapNats : {20.0, 30.0, 40.0}) {
      const at::Tensor noise = randomScores(n, n, 21);
      const at::Tensor s = noise + gapNats * at::eye(n, at::kDouble);
      const at::Tensor l = noise.mean(1);  // a baseline at the negatives' level, so the leave-one-out term matters
      const double alpha = 0.5;
      double joint = 0, marginal = 0;
      for (int64_t i = 0; i < n; ++i) {
        const auto baseline = [&](int64_t j) {
          long double loo = 0;
          for (int64_t k = 0; k < n; ++k)
            if (k != j) loo += std::exp((long double)at2(s, i, k)) / (n - 1);
          return double(std::log(alpha * loo + (1 - alpha) * std::exp((long double)l[i].item<double>())));
        };
        for (int64_t j = 0; j < n; ++j)
          if (j != i) {
            joint += (at2(s, i, i) - baseline(j)) / (n * (n - 1));
            marginal += std::exp(at2(s, i, j) - baseline(i)) / (n * (n - 1));
          }
      }
      const double expected = 1 + joint - marginal;
      const at::Tensor s32 = s.to(at::kFloat).requires_grad_(true);
      const at::Tensor value = interpolatedBound(s32, l.to(at::kFloat), alpha);
      const double got = value.item<double>();
      QVERIFY2(std::abs(got - expected) < 1e-4 * std::max(1.0, std::abs(expected)),
               qPrintable(QString("gap %1: %2 vs %3").arg(gapNats).arg(got).arg(expected)));
      value.backward();
      QVERIFY(s32.grad().isfinite().all().item<bool>());
    }
  }

  // A derangement leaves no row with itself, and each row's partner is uniform over the others: over 20,000 draws
  // at n = 5 each of row 0's four partners comes 5,000 times (sd 61; 5 sd allowed), row 0 itself never.
  void derangementHasNoFixedPointAndUniformPartners() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(8);
    std::array<int, 5> count{};
    for (int draw = 0; draw < 20000; ++draw) {
      const at::Tensor d = randomDerangement(5, gen, at::TensorOptions());
      QVERIFY(!at::eq(d, at::arange(5, at::kLong)).any().item<bool>());
      QVERIFY(at::equal(std::get<0>(d.sort()), at::arange(5, at::kLong)));  // a permutation
      ++count[size_t(d[0].item<int64_t>())];
    }
    QCOMPARE(count[0], 0);
    for (int j = 1; j < 5; ++j)
      QVERIFY2(std::abs(count[size_t(j)] - 5000) < 305, qPrintable(QString::number(count[size_t(j)])));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, randomDerangement(1, gen, at::TensorOptions()));
  }

  // MINE's gradient, entry by entry: d/ds_ii = 1/n, d/ds_ij = -e^{s_ij} / (n(n-1) average) off the diagonal
  // (Belghazi et al.: the moving average replaces the batch's E[e^s] in grad log E[e^s]); the value stays DV's.
  // bmi's NWJ and DV on a whole held-out part (_backend_linear_memory.py), written out pair by pair in double: the
  // blocked sums give them for any block height, the last block short, and stay finite at scores of hundreds of
  // nats (the log-sum-exp rescales as its maximum grows from block to block).
  void everyPairReadingsAreBmisFormulas_data() {
    QTest::addColumn<int>("rowsPerBlock");
    QTest::addColumn<double>("offset");  // added to row 39's scores: a late block with a far larger maximum
    QTest::newRow("one block") << 40 << 0.0;
    QTest::newRow("blocks of 7") << 7 << 0.0;
    QTest::newRow("rows one at a time") << 1 << 0.0;
    QTest::newRow("a late maximum of 400 nats") << 7 << 400.0;
  }
  void everyPairReadingsAreBmisFormulas() {
    QFETCH(int, rowsPerBlock);
    QFETCH(double, offset);
    const int64_t n = 40;
    at::Tensor s = randomScores(n, n, 31).to(at::kFloat);
    s[n - 1] += offset;
    const at::Tensor d = s.to(at::kDouble);
    double joint = 0, nwjMarginal = 0, maximum = -INFINITY;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (i != j) maximum = std::max(maximum, at2(d, i, j));
    double dvScaled = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        if (i == j) {
          joint += at2(d, i, i) / n;
          continue;
        }
        nwjMarginal += std::exp(at2(d, i, j) - 1) / double(n * (n - 1));
        dvScaled += std::exp(at2(d, i, j) - maximum);
      }
    const double nwj = joint - nwjMarginal;
    const double dv = joint - (maximum + std::log(dvScaled / double(n * (n - 1))));
    const EveryPairScores sums =
        everyPairScores(n, [&](int64_t first, int64_t count) { return s.narrow(0, first, count); }, rowsPerBlock);
    QVERIFY2(std::abs(dvOfEveryPair(sums) - dv) < 1e-6 * std::max(1.0, std::abs(dv)),
             qPrintable(QStringLiteral("dv %1 against %2").arg(dvOfEveryPair(sums)).arg(dv)));
    if (offset == 0)  // NWJ's e^{s - 1} at 400 nats is infinite: the formula's own, not the sums'
      QVERIFY2(std::abs(nwjOfEveryPair(sums) - nwj) < 1e-6,
               qPrintable(QStringLiteral("nwj %1 against %2").arg(nwjOfEveryPair(sums)).arg(nwj)));
  }

  // A single row has no off-diagonal pair: refused, not read as 0 / 0.
  void everyPairNeedsTwoRows() {
    const at::Tensor s = at::zeros({1, 1});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             everyPairScores(1, [&](int64_t, int64_t) { return s; }, 1));
  }

  void mineGradientUsesTheMovingAverageAlone() {
    const int64_t n = 5;
    const at::Tensor s = randomScores(n, n, 11).requires_grad_(true);
    const double average = 2.5;
    const at::Tensor value = mineObjective(s, at::scalar_tensor(std::log(average), at::kDouble));
    QVERIFY(std::abs(value.item<double>() - dvBound(s).item<double>()) < 1e-12);
    value.backward();
    const at::Tensor grad = s.grad();
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const double expected = i == j ? 1.0 / n : -std::exp(at2(s, i, j)) / (n * (n - 1) * average);
        QVERIFY2(std::abs(at2(grad, i, j) - expected) < 1e-12,
                 qPrintable(QString("(%1,%2): %3 vs %4").arg(i).arg(j).arg(at2(grad, i, j)).arg(expected)));
      }
  }

  // At momentum 0 the average is this batch's own Z, and MINE is DV, value and gradient, also where Z overflows a
  // float (scores near 200: e^200 is beyond float's range, its log is not).
  void mineAtItsOwnBatchMeanIsDvWhereZOverflows() {
    const at::Tensor base = (randomScores(6, 6, 12).to(at::kFloat) + 200.0f);
    const at::Tensor s = base.clone().requires_grad_(true), t = base.clone().requires_grad_(true);
    const at::Tensor mine = mineObjective(s, logMeanExpOffDiagonal(s).detach());
    const at::Tensor dv = dvBound(t);
    QVERIFY(std::isfinite(mine.item<double>()));
    QVERIFY(std::abs(mine.item<double>() - dv.item<double>()) < 1e-4);
    mine.backward();
    dv.backward();
    QVERIFY(at::isfinite(s.grad()).all().item<bool>());
    QVERIFY2(at::allclose(s.grad(), t.grad(), 1e-5, 1e-7), "MINE's gradient at its own mean is DV's");
  }

  // TUBA with a per-row baseline: 1 + mean_i [s_ii - l_i] - mean_{i != j} e^{s_ij - l_i}.
  void tubaWithBaselineMatchesItsDefinition() {
    const int64_t n = 5;
    const at::Tensor s = randomScores(n, n, 6), l = randomScores(1, n, 7).squeeze(0);
    double joint = 0, marginal = 0;
    for (int64_t i = 0; i < n; ++i) {
      joint += (at2(s, i, i) - l[i].item<double>()) / n;
      for (int64_t j = 0; j < n; ++j)
        if (i != j) marginal += std::exp(at2(s, i, j) - l[i].item<double>()) / (n * (n - 1));
    }
    QVERIFY(std::abs(tubaBound(s - l.unsqueeze(1)).item<double>() - (1 + joint - marginal)) < 1e-12);
  }

  // KL(p || q) = E_p[log p - log q], by Monte Carlo with 400k samples.
  void gaussianKlMatchesMonteCarlo() {
    at::Generator gen = at::detail::createCPUGenerator(8);
    const auto f64 = at::TensorOptions().dtype(at::kDouble);
    const DiagonalGaussian p{at::randn({1, 3}, gen, f64), at::randn({1, 3}, gen, f64) * 0.5};
    const DiagonalGaussian q{at::randn({1, 3}, gen, f64), at::randn({1, 3}, gen, f64) * 0.5};
    const at::Tensor y = p.mean + (0.5 * p.logVar).exp() * at::randn({400000, 3}, gen, f64);
    auto logDensity = [&](const DiagonalGaussian& g) {
      return (-0.5 * (g.logVar + std::log(2 * M_PI) + (y - g.mean).pow(2) * (-g.logVar).exp())).sum(1);
    };
    const at::Tensor diff = logDensity(p) - logDensity(q);
    const double mc = diff.mean().item<double>(), se = diff.std().item<double>() / std::sqrt(400000.0);
    const double exact = klDivergence(p, q).item<double>();
    qInfo("KL exact %.5f, Monte Carlo %.5f +- %.5f", exact, mc, se);
    QVERIFY(std::abs(exact - mc) < 4 * se);
    QCOMPARE(klDivergence(p, p).item<double>(), 0.0);
  }
};

QTEST_GUILESS_MAIN(TestBounds)
#include "test_bounds.moc"
