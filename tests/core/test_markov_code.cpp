// The Markov-order dynamic programs (AMMI paper, Algorithms 1 and 3, Viterbi) against brute-force enumeration
// of all 2^m codes, to 1e-6, for batch sizes 1 and 7, m up to 10 and orders o <= o' up to 5; gradients of the
// cross entropy against central finite differences. The best order-r prior (closed form) against the chain rule
// over the enumerated aggregate, and AMMI's learned prior against that optimum.
#include <ATen/ATen.h>

#include <QtTest>
#include <cmath>
#include <stdexcept>

#include "engine/device.h"
#include "markov/enumeration.h"
#include "markov/learned_prior.h"
#include "markov/markov_code.h"

using namespace milab::markov;

namespace {

const auto kDouble = at::TensorOptions().dtype(at::kDouble);

at::Tensor randomLogits(int64_t B, int64_t m, int64_t order, uint64_t seed) {
  at::Generator gen = at::detail::createCPUGenerator(seed);
  return at::randn({B, m, int64_t{1} << order}, gen, kDouble) * 1.5;
}

// The o bits before position i (0-based) of each code: [C, m].
at::Tensor histories(const at::Tensor& codes, int64_t order) {
  const int64_t m = codes.size(1);
  at::Tensor h = at::zeros_like(codes);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 1; j <= order && i - j >= 0; ++j)
      h.select(1, i).add_(codes.select(1, i - j) * (int64_t{1} << (j - 1)));
  return h;
}

double maxAbs(const at::Tensor& a, const at::Tensor& b) { return (a - b).abs().max().item<double>(); }

}  // namespace

class TestMarkovCode : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The lab's one intra-op thread on this thread too, so the suite computes the same digits on any machine.
  void initTestCase() { milab::initTorchRuntime(); }
  void probabilitiesSumToOne() {
    const at::Tensor logits = randomLogits(7, 8, 3, 1);
    const at::Tensor logP = logProbOfCodes(logits, allCodes(8, at::kCPU));
    QVERIFY(maxAbs(at::logsumexp(logP, 1), at::zeros({7}, kDouble)) < 1e-12);
  }

  void forwardMarginalsMatchEnumeration() {
    for (int64_t B : {1, 7})
      for (int64_t m : {1, 4, 10})
        for (int64_t o = 0; o <= std::min<int64_t>(5, m); ++o) {
          const at::Tensor logits = randomLogits(B, m, o, 100 * m + o);
          const at::Tensor codes = allCodes(m, at::kCPU);
          const at::Tensor p = logProbOfCodes(logits, codes).exp();  // [B, C]
          const at::Tensor h = histories(codes, o);                  // [C, m]
          const at::Tensor expected = at::zeros({B, m, int64_t{1} << o}, kDouble);
          for (int64_t i = 0; i < m; ++i) expected.select(1, i).index_add_(1, h.select(1, i), p);
          QVERIFY2(maxAbs(historyMarginals(logits), expected) < 1e-6,
                   qPrintable(QString("B=%1 m=%2 o=%3").arg(B).arg(m).arg(o)));
        }
  }

  void crossEntropyAndEntropyMatchEnumeration() {
    for (int64_t B : {1, 7})
      for (int64_t m : {1, 3, 6, 10})
        for (int64_t o = 0; o <= std::min<int64_t>(5, m); ++o)
          for (int64_t o2 = o; o2 <= std::min<int64_t>(5, m); ++o2) {
            const at::Tensor p = randomLogits(B, m, o, 1000 * m + 10 * o + o2);
            const at::Tensor q = randomLogits(B, m, o2, 2000 * m + 10 * o + o2);
            const at::Tensor codes = allCodes(m, at::kCPU);
            const at::Tensor logP = logProbOfCodes(p, codes), logQ = logProbOfCodes(q, codes);
            const at::Tensor expected = -(logP.exp() * logQ).sum(1);
            const QString where = QString("B=%1 m=%2 o=%3 o'=%4").arg(B).arg(m).arg(o).arg(o2);
            QVERIFY2(maxAbs(crossEntropy(p, q), expected) < 1e-6, qPrintable(where));
            QVERIFY2(maxAbs(entropy(p), -(logP.exp() * logP).sum(1)) < 1e-6, qPrintable(where));
          }
  }

  // A prior shared by the batch (batch 1 against batch 7) broadcasts.
  void sharedPriorBroadcasts() {
    const at::Tensor p = randomLogits(7, 6, 1, 5), prior = randomLogits(1, 6, 3, 6);
    const at::Tensor codes = allCodes(6, at::kCPU);
    const at::Tensor expected = -(logProbOfCodes(p, codes).exp() * logProbOfCodes(prior, codes)).sum(1);
    QVERIFY(maxAbs(crossEntropy(p, prior), expected) < 1e-6);
  }

  // A prior's fit reads only the batch's aggregate windows: their cross entropy with q is the batch's mean cross
  // entropy (against enumeration), and windows of the wrong order are refused.
  void aggregateWindowsGiveTheMeanCrossEntropy() {
    const at::Tensor p = randomLogits(7, 6, 1, 9), prior = randomLogits(1, 6, 3, 10);
    const at::Tensor codes = allCodes(6, at::kCPU);
    const at::Tensor expected = -(logProbOfCodes(p, codes).exp() * logProbOfCodes(prior, codes)).sum(1).mean();
    const at::Tensor windows = windowMarginals(p, 3).mean(0, true);
    QVERIFY(maxAbs(crossEntropyOfWindows(windows, prior), expected.unsqueeze(0)) < 1e-6);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, crossEntropyOfWindows(windowMarginals(p, 2), prior));
  }

  void viterbiMatchesBruteForceArgmax() {
    for (int64_t B : {1, 7})
      for (int64_t m : {1, 5, 10})
        for (int64_t o = 0; o <= std::min<int64_t>(5, m); ++o) {
          const at::Tensor logits = randomLogits(B, m, o, 3000 * m + o);
          const at::Tensor codes = allCodes(m, at::kCPU);
          const auto [best, index] = logProbOfCodes(logits, codes).max(1);
          const Decoded d = viterbi(logits);
          const QString where = QString("B=%1 m=%2 o=%3").arg(B).arg(m).arg(o);
          QVERIFY2(maxAbs(d.logProb, best) < 1e-9, qPrintable(where));
          QVERIFY2(d.codes.equal(codes.index_select(0, index)), qPrintable(where));
        }
  }

  void crossEntropyGradientsMatchFiniteDifferences() {
    const at::Tensor p = randomLogits(3, 7, 2, 7).requires_grad_(), q = randomLogits(3, 7, 4, 8).requires_grad_();
    crossEntropy(p, q).sum().backward();
    const double eps = 1e-6;
    for (const at::Tensor& x : {p, q}) {
      const at::Tensor grad = x.grad();
      const at::Tensor flat = x.detach().flatten();
      for (int64_t k = 0; k < flat.numel(); k += 5) {
        at::Tensor plus = x.detach().clone(), minus = x.detach().clone();
        plus.flatten()[k] += eps;
        minus.flatten()[k] -= eps;
        const bool isP = x.is_same(p);
        const double fPlus = crossEntropy(isP ? plus : p.detach(), isP ? q.detach() : plus).sum().item<double>();
        const double fMinus = crossEntropy(isP ? minus : p.detach(), isP ? q.detach() : minus).sum().item<double>();
        const double numeric = (fPlus - fMinus) / (2 * eps);
        QVERIFY2(std::abs(numeric - grad.flatten()[k].item<double>()) < 1e-6,
                 qPrintable(QString("%1[%2]: %3 vs %4")
                                .arg(isP ? "p" : "q")
                                .arg(k)
                                .arg(numeric)
                                .arg(grad.flatten()[k].item<double>())));
      }
    }
  }

  // BMMI's entropy of the aggregate posterior, against a direct mixture over codes.
  void aggregateEntropyIsTheMixtureEntropy() {
    const at::Tensor logits = randomLogits(5, 6, 1, 9);
    const at::Tensor mix = logProbOfCodes(logits, allCodes(6, at::kCPU)).exp().mean(0);
    QVERIFY(std::abs(aggregateEntropy(logits).item<double>() + (mix * mix.log()).sum().item<double>()) < 1e-9);
    QVERIFY(aggregateEntropy(logits).item<double>() <= 6 * std::log(2.0) + 1e-12);
  }
  // The closed-form best order-r prior reads sum_i H(Z_i | r previous bits) of the enumerated aggregate; at
  // r = m - 1 that is H(Z) itself, and it never rises with r.
  void optimalPriorMatchesTheChainRule() {
    for (int64_t m : {4, 8})
      for (int64_t o = 0; o <= 2; ++o) {
        const at::Tensor logits = randomLogits(7, m, o, 10 * m + o);
        const at::Tensor codes = allCodes(m, at::kCPU);
        const at::Tensor mix = logProbOfCodes(logits, codes).exp().mean(0);  // [C]
        double previous = 1e300;
        for (int64_t r = o; r < m; ++r) {
          const at::Tensor window = histories(codes, r) * 2;  // (h << 1) | z_i
          double expected = 0;
          for (int64_t i = 0; i < m; ++i) {
            const at::Tensor joint =
                at::zeros({int64_t{2} << r}, kDouble).index_add_(0, window.select(1, i) + codes.select(1, i), mix);
            const at::Tensor history = joint.view({-1, 2}).sum(1);
            expected += -(joint * joint.clamp_min(1e-300).log()).sum().item<double>() +
                        (history * history.clamp_min(1e-300).log()).sum().item<double>();
          }
          const double got = crossEntropy(logits, optimalPrior(logits, r)).mean().item<double>();
          QVERIFY2(std::abs(got - expected) < 1e-6,
                   qPrintable(QString("m=%1 o=%2 r=%3: %4 vs %5").arg(m).arg(o).arg(r).arg(got).arg(expected)));
          QVERIFY(got <= previous + 1e-9);
          previous = got;
        }
        QVERIFY(std::abs(previous - aggregateEntropy(logits).item<double>()) < 1e-6);
      }
  }

  // No order-r prior does better: random ones sit above it, and the cross entropy is stationary there.
  void optimalPriorIsTheLeast() {
    const at::Tensor logits = randomLogits(7, 6, 1, 5);
    const at::Tensor best = optimalPrior(logits, 3);
    const double least = crossEntropy(logits, best).mean().item<double>();
    for (uint64_t seed = 1; seed <= 5; ++seed)
      QVERIFY(crossEntropy(logits, best + 0.3 * randomLogits(1, 6, 3, seed)).mean().item<double>() > least);
    const at::Tensor q = best.clone().requires_grad_();
    crossEntropy(logits, q).mean().backward();
    QVERIFY(q.grad().abs().max().item<double>() < 1e-9);
  }

  // AMMI's prior FF(Theta), fitted by Adam, approaches the closed-form optimum from above.
  void learnedPriorApproachesTheOptimum() {
    const at::Tensor logits = (randomLogits(4, 6, 0, 3) * 3).to(at::kFloat);  // a peaked aggregate
    const double least = crossEntropy(logits, optimalPrior(logits, 2)).mean().item<double>();
    at::Generator gen = at::detail::createCPUGenerator(1);
    LearnedPrior prior(6, 2, 32, 0.02, gen, at::kCPU);
    const double start = crossEntropy(logits, prior.logits()).mean().item<double>();
    const double fitted = prior.fit(logits, 1500);
    qInfo("order-2 prior over 6 bits: start %.4f, fitted %.4f, optimum %.4f", start, fitted, least);
    QVERIFY(fitted >= least - 1e-4);
    QVERIFY(fitted - least < 0.01);
    QVERIFY(start - least > 0.1);
  }
};

QTEST_GUILESS_MAIN(TestMarkovCode)
#include "test_markov_code.moc"
