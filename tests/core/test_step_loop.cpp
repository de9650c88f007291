// The step loop's host side: a step's readings stay tensors (StepReading) until PendingSteps copies many steps' at
// once, and the numbers that come out are exactly those .item() gave step by step (order of addition, sign, dtype);
// the first non-finite step ends the drain with its reason. descendClipped, which no longer reads the gradient
// norm back to the host, clips as torch::nn::utils::clip_grad_norm_ does, to the bit; and DEMI's step with its
// backward written out (plugins/demi/demi_step) is autograd's to float rounding (its candidates are summed in
// another order). The separable critic's written-out step has its own suite, test_separable_step.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/types.h>
// clang-format off
#include <torch/nn/utils/clip_grad.h>
// clang-format on

#include <QtTest>
#include <cmath>
#include <limits>

#include "demi/candidate_nce.h"
#include "demi/candidate_scores.h"
#include "demi/critic_pair.h"
#include "demi/demi_step.h"
#include "engine/device.h"
#include "engine/pending_steps.h"
#include "method/step_reading.h"
#include "nn/bounds.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "nn/mlp.h"
#include "nn/separable_critic.h"

using namespace milab;

namespace {
constexpr int kCnceAlone = -1;  // the cnce method's step (trainCnce): no unconditional term
}  // namespace

class TestStepLoop : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The lab's one intra-op thread on this thread too, so the suite computes the same digits on any machine.
  void initTestCase() { initTorchRuntime(); }
  // a + b - c, added left to right in double from float and double elements, as item() readings were.
  void readingsAddLikeItemReadings() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(4);
    for (int i = 0; i < 200; ++i) {
      const at::Tensor a = at::randn({}, gen) * 1e3, b = at::randn({1}, gen), c = at::randn({}, gen, at::kDouble);
      const double expected = a.item<double>() + b.item<double>() - c.item<double>();
      const StepReading r = StepReading(a) + b - c;
      QCOMPARE(r.terms().size(), size_t(3));
      QVERIFY(r.value() == expected);  // bit for bit, not within a tolerance
      QVERIFY((-r).value() == -expected);
      QVERIFY((StepReading(a) - 0.25).value() == a.item<double>() - 0.25);
    }
    QVERIFY(std::signbit(StepReading(at::full({}, -0.0)).value()));  // -0 stays -0, as item() gave it
    QCOMPARE(StepReading().value(), 0.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, StepReading(at::zeros({2})));
  }

  // A reading holds no autograd graph: the loss it was read from can be freed with its graph.
  void readingsAreDetached() {
    const at::Tensor w = at::ones({3}).requires_grad_();
    const StepReading r = (w * 2).sum();
    QVERIFY(!r.terms()[0].value.requires_grad());
  }

  void drainHandsOverEveryStepInOrder() {
    PendingSteps pending;
    std::vector<double> estimates, losses;
    for (int step = 1; step <= 300; ++step) {
      const at::Tensor e = at::full({}, 0.1 * step, at::kFloat), l = at::full({}, -1.0 / step, at::kDouble);
      estimates.push_back(e.item<double>() + 1.0);
      losses.push_back(-l.item<double>());
      pending.add(step, {StepReading(e) + 1.0, -StepReading(l)}, 0.001 * step);
    }
    QCOMPARE(pending.size(), 300);
    std::vector<StepNumbers> seen;
    QCOMPARE(pending.drain([&](const StepNumbers& n) { seen.push_back(n); }), QString());
    QCOMPARE(pending.size(), 0);
    QCOMPARE(seen.size(), size_t(300));
    for (int i = 0; i < 300; ++i) {
      QCOMPARE(seen[i].step, i + 1);
      QVERIFY(seen[i].estimate == estimates[i] && seen[i].loss == losses[i]);
      QCOMPARE(seen[i].seconds, 0.001 * (i + 1));
    }
    QCOMPARE(pending.drain({}), QString());  // nothing pending: nothing to say
  }

  void drainStopsAtTheFirstNonFiniteStep_data() {
    QTest::addColumn<double>("badEstimate");
    QTest::addColumn<double>("badLoss");
    QTest::addColumn<QString>("reason");
    const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
    QTest::newRow("estimate") << nan << 1.0 << "training diverged: non-finite estimate at step 7";
    QTest::newRow("loss") << 1.0 << -inf << "training diverged: non-finite loss at step 7";
  }
  void drainStopsAtTheFirstNonFiniteStep() {
    QFETCH(double, badEstimate);
    QFETCH(double, badLoss);
    QFETCH(QString, reason);
    PendingSteps pending;
    for (int step = 1; step <= 10; ++step) {
      const bool bad = step >= 7;  // later steps are NaN too, as a diverged network's are
      pending.add(step, {at::full({}, bad ? badEstimate : 1.0), at::full({}, bad ? badLoss : 1.0)}, 0);
    }
    int last = 0;
    QCOMPARE(pending.drain([&](const StepNumbers& n) { last = n.step; }), reason);
    QCOMPARE(last, 6);  // the finite steps before it, none after
    QCOMPARE(pending.size(), 0);
  }

  void clippingMatchesTorchToTheBit() {
    for (const double maxNorm : {1e-3, 0.5, 1e6}) {  // clipped hard, clipped a little, not clipped
      at::Generator a = at::make_generator<at::CPUGeneratorImpl>(2), b = at::make_generator<at::CPUGeneratorImpl>(2);
      Mlp ours(5, 16, 4, a), theirs(5, 16, 4, b), otherGroup(4, 8, 1, a), otherTheirs(4, 8, 1, b);
      std::vector<at::Tensor> all = ours->parameters(), allTheirs = theirs->parameters();
      for (const at::Tensor& p : otherGroup->parameters()) all.push_back(p);
      for (const at::Tensor& p : otherTheirs->parameters()) allTheirs.push_back(p);
      FlatAdam flat(all, 0.01), flatTheirs(allTheirs, 0.01);
      const at::Tensor x = at::randn({32, 5}, a);
      for (int step = 0; step < 5; ++step) {
        descendClipped(flat, otherGroup->forward(ours->forward(x)).pow(2).mean(),
                       {ours->parameters(), otherGroup->parameters()}, maxNorm);
        flatTheirs.zero_grad();
        otherTheirs->forward(theirs->forward(x)).pow(2).mean().backward();
        torch::nn::utils::clip_grad_norm_(theirs->parameters(), maxNorm);
        torch::nn::utils::clip_grad_norm_(otherTheirs->parameters(), maxNorm);
        flatTheirs.step();
        for (size_t i = 0; i < all.size(); ++i)
          QVERIFY2(at::equal(all[i], allTheirs[i]), qPrintable(QString("max norm %1, step %2").arg(maxNorm).arg(step)));
      }
    }
  }

  // The fused CPU loops of the candidates' scores and their backward against the ATen ops they replace (what a GPU
  // or a double tensor runs): a non-contiguous pre-activation takes the ATen route on the same values.
  void fusedCandidateScoresMatchAtenOps() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(5);
    const int64_t b = 6, c = 5, h = 37;  // h not a multiple of the vector width
    const at::Tensor pre = at::randn({b, c, h}, gen), rows = at::randn({b, h}, gen), offsets = at::randn({b}, gen);
    const at::Tensor gradScores = at::randn({b, c}, gen);
    at::Tensor fused = pre.clone(), reference = at::empty({h, c, b}).permute({2, 1, 0}).copy_(pre);
    QVERIFY(fused.is_contiguous() && !reference.is_contiguous());
    at::Tensor fusedScores = at::empty({b, c + 1}).narrow(1, 1, c), referenceScores = at::empty({b, c});
    scoreReluCandidates(fused, rows, offsets, fusedScores);
    scoreReluCandidates(reference, rows, offsets, referenceScores);
    QVERIFY(at::equal(fused, reference));  // the relu, in place
    QVERIFY(at::allclose(fusedScores, referenceScores, 1e-5, 1e-5));
    QVERIFY(at::allclose(referenceScores, (pre.relu() * rows.unsqueeze(1)).sum(2) + offsets.unsqueeze(1), 1e-5, 1e-5));
    at::Tensor fusedGradRows = at::empty({b, h}), referenceGradRows = at::empty({b, h});
    const at::Tensor fusedGrad = scoreReluCandidatesBackward(gradScores, fused, rows, fusedGradRows);
    const at::Tensor referenceGrad = scoreReluCandidatesBackward(gradScores, reference, rows, referenceGradRows);
    QVERIFY(at::allclose(fusedGradRows, referenceGradRows, 1e-5, 1e-5));
    QVERIFY(at::equal(fusedGrad, referenceGrad));  // one product per element, the same mask
    // Against autograd's derivative of the scores.
    const at::Tensor z = pre.clone().requires_grad_(), r = rows.clone().requires_grad_();
    ((z.relu() * r.unsqueeze(1)).sum(2) * gradScores).sum().backward();
    QVERIFY(at::allclose(fusedGrad, z.grad().view({b * c, h}), 1e-5, 1e-5));
    QVERIFY(at::allclose(fusedGradRows, r.grad(), 1e-5, 1e-5));
  }

  // The fused I_CNCE pass (plugins/demi/candidate_nce) against autograd through the definition it replaces: scores of
  // the negatives r . relu(W y + c) + o beside the given positive, firstColumnNce over them. 9 rows of 7 negatives with
  // 37 hidden units (not a multiple of the vector width) are one block (blocks hold 32,768 / (7 H) rows); with 2,000
  // hidden units the blocks hold 2 rows and the last is short.
  void fusedCandidateNceIsAutogradsToRounding_data() {
    QTest::addColumn<int>("hidden");
    QTest::newRow("one block") << 37;
    QTest::newRow("blocks of 2 rows, the last short") << 2000;
  }
  void fusedCandidateNceIsAutogradsToRounding() {
    QFETCH(int, hidden);
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(11);
    const int64_t b = 9, c = 7, d = 5, h = hidden;
    const at::Tensor weight = at::randn({h, d}, gen), bias = at::randn({h}, gen), rows = 0.3 * at::randn({b, h}, gen);
    const at::Tensor offsets = at::randn({b}, gen), positive = at::randn({b}, gen),
                     negatives = at::randn({b, c, d}, gen);
    const std::optional<CandidateNce> fused = fusedCandidateNce(weight, bias, rows, offsets, positive, negatives);
    QVERIFY(fused.has_value());
    const at::Tensor w = weight.clone().requires_grad_(), c1 = bias.clone().requires_grad_();
    const at::Tensor r = rows.clone().requires_grad_(), o = offsets.clone().requires_grad_();
    const at::Tensor p = positive.clone().requires_grad_();
    const at::Tensor hiddenUnits = at::relu(at::matmul(negatives, w.t()) + c1);  // [B, C, H]
    const at::Tensor negativeScores = (hiddenUnits * r.unsqueeze(1)).sum(2) + o.unsqueeze(1);
    const at::Tensor value = firstColumnNce(at::cat({p.unsqueeze(1), negativeScores}, 1));
    (-value).backward();
    QVERIFY(std::abs(fused->value.item<double>() - value.item<double>()) < 1e-5);
    const auto close = [](const at::Tensor& ours, const at::Tensor& autograd) {
      const double scale = autograd.abs().max().item<double>();
      return (ours - autograd).abs().max().item<double>() <= 1e-5 * scale + 1e-7;
    };
    QVERIFY(close(fused->gradPositive, p.grad()));
    QVERIFY(close(fused->gradRows, r.grad()));
    QVERIFY(close(fused->gradOffsets, o.grad()));
    QVERIFY(close(fused->gradWeight, w.grad()));
    QVERIFY(close(fused->gradBias, c1.grad()));
    // A double or non-contiguous input is left to ATen's ops.
    QVERIFY(!fusedCandidateNce(weight, bias, rows, offsets, positive, negatives.to(at::kDouble)).has_value());
    QVERIFY(!fusedCandidateNce(weight, bias, rows, offsets, positive, negatives.transpose(0, 1)).has_value());
  }

  void handWrittenDemiStepIsAutogradsToRounding_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("K");
    QTest::addColumn<int>("hidden");
    QTest::addColumn<int>("embed");
    using Kind = DemiConditional;
    QTest::newRow("CNCE, K 128, the default critic") << int(Kind::cnceNegatives) << 128 << 100 << 100;
    QTest::newRow("CNCE, K 10, odd sizes") << int(Kind::cnceNegatives) << 10 << 13 << 5;
    QTest::newRow("BO, K 128") << int(Kind::boosted) << 128 << 100 << 100;
    QTest::newRow("BO, K 10, odd sizes") << int(Kind::boosted) << 10 << 13 << 5;
    QTest::newRow("IS, K 128") << int(Kind::importanceSampled) << 128 << 100 << 100;
    QTest::newRow("IS, K 10, odd sizes") << int(Kind::importanceSampled) << 10 << 13 << 5;
    QTest::newRow("CNCE alone (trainCnce), K 128") << kCnceAlone << 128 << 100 << 100;
    QTest::newRow("CNCE alone (trainCnce), K 10") << kCnceAlone << 10 << 13 << 5;
  }
  // Against the objectives as the DEMI variants define them for autograd (CriticPair and nn/bounds, psi detached
  // in the conditional term).
  void handWrittenDemiStepIsAutogradsToRounding() {
    QFETCH(int, kind);
    QFETCH(int, K);
    QFETCH(int, hidden);
    QFETCH(int, embed);
    using Kind = DemiConditional;
    const Kind conditionalKind = Kind(kind);
    const int b = K / 2, d = 4;
    at::Generator a = at::make_generator<at::CPUGeneratorImpl>(3), c = at::make_generator<at::CPUGeneratorImpl>(3);
    SeparableCritic autograd(2 * d, d, hidden, embed, 5e-3, c10::kCPU, a),
        handWritten(2 * d, d, hidden, embed, 5e-3, c10::kCPU, c);
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(8);
    for (int step = 0; step < 40; ++step) {
      Batch batch;
      batch.xp = at::randn({b, d}, data);
      batch.x = 0.3 * batch.xp + at::randn({b, d}, data);
      batch.y = 0.6 * batch.xp + 0.5 * batch.x + 0.6 * at::randn({b, d}, data);
      const at::Tensor negatives = 0.6 * batch.xp.unsqueeze(1) + 0.8 * at::randn({b, b - 1, d}, data);
      CriticPair critics(&autograd, nullptr, batch);
      const at::Tensor psi = critics.psi();
      const at::Tensor unconditional = kind == kCnceAlone ? at::zeros({}) : inBatchNce(psi);
      at::Tensor conditional;
      if (kind == kCnceAlone) conditional = critics.cnce(negatives);
      if (conditionalKind == Kind::cnceNegatives) conditional = critics.cnce(negatives);
      if (conditionalKind == Kind::boosted) conditional = inBatchNce(psi.detach() + critics.phi());
      if (conditionalKind == Kind::importanceSampled)
        conditional = importanceSampledNce(positiveFirst(critics.phi()), positiveFirst(psi).detach());
      autograd.minimise(-(unconditional + conditional));
      DemiStep ours;
      if (kind == kCnceAlone) {
        ours.unconditional = at::zeros({});
        ours.conditional = trainCnce(handWritten, batch.xp, batch.x, batch.y, negatives);
      } else {
        ours = trainDemi(handWritten, batch.xp, batch.x, batch.y, conditionalKind,
                         conditionalKind == Kind::cnceNegatives ? negatives : at::Tensor());
      }
      const QByteArray where = QString("step %1").arg(step).toUtf8();
      // The readings, to float rounding of sums of ~K terms (the parameters drift apart by Adam's normalised steps
      // on gradients that rounding sets to ~0, so later steps get a looser bound than the first).
      const double tolerance = step == 0 ? 1e-5 : 1e-3;
      QVERIFY2(std::abs(ours.unconditional.item<double>() - unconditional.item<double>()) < tolerance, where);
      QVERIFY2(std::abs(ours.conditional.item<double>() - conditional.item<double>()) < tolerance, where);
      if (step > 0) continue;
      if (kind != kCnceAlone && conditionalKind != Kind::cnceNegatives) {  // I_IS of phi and psi, DEMI-BO's reading
        const double is = importanceSampledNce(positiveFirst(critics.phi()), positiveFirst(psi)).item<double>();
        QVERIFY(std::abs(ours.importanceSampled.item<double>() - is) < tolerance);
      }
      // The first step starts from the same parameters: every gradient agrees to rounding, relative to the step's
      // largest (g's output bias has a gradient of exactly 0 in exact arithmetic: a shift of every candidate's
      // score by f . b2 leaves each softmax unchanged; both steps give it rounding noise of ~1e-8).
      const std::vector<at::Tensor>& mine = handWritten.parameters();
      const std::vector<at::Tensor>& theirs = autograd.parameters();
      QCOMPARE(mine.size(), theirs.size());
      double scale = 0;
      for (const at::Tensor& p : theirs) scale = std::max(scale, p.grad().abs().max().item<double>());
      QVERIFY(scale > 1e-3);
      for (size_t i = 0; i < mine.size(); ++i) {
        const double error = (mine[i].grad() - theirs[i].grad()).abs().max().item<double>();
        QVERIFY2(error <= 1e-5 * scale, qPrintable(QString("parameter %1: %2 of %3").arg(i).arg(error).arg(scale)));
      }
    }
  }
};

QTEST_MAIN(TestStepLoop)
#include "test_step_loop.moc"
