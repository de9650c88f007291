// DEMI-VAR's estimator: phi trained by I_VAR with a learned proposal q(y|x') (demi_var_plugin.h).
#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "demi/critic_pair.h"
#include "demi/decomposed_estimator.h"
#include "demi/demi_step.h"
#include "demi/variant_estimators.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "nn/mlp.h"
#include "nn/mlp_backward.h"
#include "nn/separable_critic.h"
#include "random/philox_normals.h"
#include "tasks/on_device.h"

namespace milab {

namespace {

// q's log-variance is held in [kMinLogVar, kMaxLogVar] so that e^-v stays finite in its likelihood.
constexpr double kMinLogVar = -30.0, kMaxLogVar = 10.0;

class DemiVarEstimator final : public DecomposedEstimator {
 public:
  explicit DemiVarEstimator(const EstimatorContext& ctx) : DecomposedEstimator(ctx) {
    if (oracle()) return;  // the oracle's q is the true p(y|x'), so its KL is 0
    // q(y | x'): x' in, a mean and a log-variance per dimension of y out.
    q_ = Mlp(ctx.task->dimX(), options().critic.hidden, 2 * ctx.task->dimY(), generator());
    q_->to(ctx.device);
    adam_ = std::make_unique<FlatAdam>(q_->parameters(), options().critic.lr);
  }

 protected:
  ConditionalTerm conditionalObjective(const Batch& batch, CriticPair& critics) override {
    fitProposal(batch);  // q is updated at the same rate as phi, as in the paper's Figure 2
    const Variational v = variationalBound(batch, critics);
    // The KL does not depend on phi. The difference is taken in double, as the host once took it.
    return {v.cnce, v.cnce.detach().to(at::kDouble) - v.kl};
  }
  // conditionalObjective's step with its backward written out: q fitted first, then phi by CNCE on q's negatives.
  std::optional<WrittenOutStep> writtenOutStep(const Batch& batch, SeparableCritic& critic) override {
    fitProposalWrittenOut(batch);
    const Proposed q = proposedNegatives(batch);
    const DemiStep s = trainDemi(critic, batch.xp, batch.x, batch.y, DemiConditional::cnceNegatives, q.negatives);
    return WrittenOutStep{s.unconditional, {s.conditional, s.conditional.to(at::kDouble) - q.kl}};
  }
  QList<Term> ownTerms(const Batch& batch, CriticPair& critics) override {
    const Variational v = variationalBound(batch, critics);
    const double kl = v.kl.item<double>();
    return {{"I_VAR(x;y|x') [trains phi]", v.cnce.item<double>() - kl}, {"KL(p(y|x') || q)", kl}};
  }

 private:
  struct Variational {
    at::Tensor cnce;  // CNCE with negatives from q
    at::Tensor kl;    // E_x' KL(p(y|x') || q(y|x')), exact: both are Gaussian (double, one element)
  };

  DiagonalGaussian proposal(const at::Tensor& xp) {
    const at::Tensor out = q_->forward(xp);
    const int64_t d = xp.size(1);
    return {out.narrow(1, 0, d), out.narrow(1, d, d).clamp(kMinLogVar, kMaxLogVar)};
  }

  // Maximum likelihood on the joint batch's (x', y) pairs.
  void fitProposal(const Batch& batch) {
    if (oracle()) return;
    const DiagonalGaussian q = proposal(batch.xp);
    const at::Tensor nll = 0.5 * (q.logVar + (batch.y - q.mean).pow(2) * (-q.logVar).exp()).sum(1).mean();
    descend(*adam_, nll);
  }

  // fitProposal's step with its backward written out (no graph; the same step to float rounding): the negative
  // log-likelihood's gradient at q's outputs, with r = y - mean and the bounded log-variance v,
  //   d/d mean = -r e^-v / B,   d/d v = (1 - r^2 e^-v) / (2B), zero where the clamp holds v at a bound,
  // then q's MLP backward straight into its optimiser's buffer.
  void fitProposalWrittenOut(const Batch& batch) {
    c10::NoGradGuard noGraph;
    const MlpPass pass = mlpForward(q_, batch.xp);
    const int64_t b = batch.xp.size(0), d = batch.xp.size(1);
    const at::Tensor rawLogVar = pass.output.narrow(1, d, d);
    const at::Tensor residual = batch.y - pass.output.narrow(1, 0, d);
    const at::Tensor precision = rawLogVar.clamp(kMinLogVar, kMaxLogVar).neg_().exp_();
    const at::Tensor weighted = residual * precision;  // r e^-v
    at::Tensor grad = at::empty_like(pass.output);
    grad.narrow(1, 0, d).copy_(weighted).div_(-static_cast<double>(b));
    const at::Tensor inside = (rawLogVar >= kMinLogVar).logical_and_(rawLogVar <= kMaxLogVar);  // clamp's backward
    grad.narrow(1, d, d).copy_((1 - weighted * residual).mul_(inside).div_(2.0 * b));
    mlpBackward(q_, pass, grad);
    adam_->step();
  }

  Variational variationalBound(const Batch& batch, CriticPair& critics) {
    if (oracle())  // q is the true p(y|x')
      return {groundTruthCnce(batch, critics), at::zeros({}, batch.xp.options().dtype(at::kDouble))};
    const Proposed q = proposedNegatives(batch);
    return {critics.cnce(q.negatives), q.kl};
  }

  struct Proposed {
    at::Tensor negatives;  // [B, perTerm() - 1, d] from q(y|x'_i), drawn with noise()
    at::Tensor kl;         // E_x' KL(p(y|x') || q(y|x')), exact: both are Gaussian (double, one element)
  };
  Proposed proposedNegatives(const Batch& batch) {
    c10::NoGradGuard noGrad;  // the contrastive term never trains q
    const DiagonalGaussian q = proposal(batch.xp);
    const at::Tensor eps =
        onDevice(philoxNormals({batch.xp.size(0), perTerm() - 1, batch.xp.size(1)}, noise()), batch.xp.device());
    return {
        q.mean.unsqueeze(1) + (0.5 * q.logVar).exp().unsqueeze(1) * eps,
        klDivergence(context().task->yGivenXp(batch.xp), {q.mean.to(at::kDouble), q.logVar.to(at::kDouble)}).mean()};
  }

  Mlp q_{nullptr};
  std::unique_ptr<FlatAdam> adam_;
};

}  // namespace

std::unique_ptr<Estimator> makeDemiVarEstimator(const EstimatorContext& context) {
  return std::make_unique<DemiVarEstimator>(context);
}

}  // namespace milab
