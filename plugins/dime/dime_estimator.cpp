#include "dime_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "method/score_matrix_estimator.h"
#include "nn/derangement.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "nn/mlp.h"
#include "nn/separable_critic.h"

namespace milab {

namespace {

// The paper's "deranged" discriminator: an MLP on the concatenated [x, y], two hidden ReLU layers (its code: 200
// and 100 units, with dropout; here `hidden` and hidden / 2, without dropout, so that a run is deterministic).
struct ConcatCriticImpl : torch::nn::Module {
  ConcatCriticImpl(int64_t in, int64_t hidden, at::Generator& gen) {
    first = register_module("first", torch::nn::Linear(in, hidden));
    second = register_module("second", torch::nn::Linear(hidden, std::max<int64_t>(1, hidden / 2)));
    out = register_module("out", torch::nn::Linear(std::max<int64_t>(1, hidden / 2), 1));
    for (auto* layer : {&first, &second, &out}) initLinear(*layer, gen);
  }
  at::Tensor forward(const at::Tensor& xy) { return out(second(first(xy).relu_()).relu_()).squeeze(-1); }
  torch::nn::Linear first{nullptr}, second{nullptr}, out{nullptr};
};
TORCH_MODULE(ConcatCritic);

QString readingName(FDivergence d) {
  switch (d) {
    case FDivergence::Kl:
      return "I_KL-DIME";
    case FDivergence::Gan:
      return "I_GAN-DIME";
    case FDivergence::Hellinger:
      return "I_HD-DIME";
  }
  return {};
}

}  // namespace

struct DimeEstimator::Networks {
  ConcatCritic concat{nullptr};
  std::unique_ptr<SeparableCritic> separable;
  std::unique_ptr<FlatAdam> adam;  // the concatenated critic's (the separable one keeps its own)
};

DimeEstimator::DimeEstimator(const EstimatorContext& ctx, FDivergence divergence)
    : options_(dimeOptions(divergence, ctx.params)), task_(ctx.task), gen_(ctx.generator), pairing_(ctx.noise) {
  if (options_.critic == DimeOptions::Critic::Oracle) return;
  nets_ = std::make_unique<Networks>();
  const int64_t xDim = criticInputDim(*task_), yDim = task_->dimY();
  if (options_.critic == DimeOptions::Critic::Separable) {
    nets_->separable = std::make_unique<SeparableCritic>(xDim, yDim, options_.hidden, options_.embed, options_.lr,
                                                        ctx.device, gen_);
    return;
  }
  nets_->concat = ConcatCritic(xDim + yDim, options_.hidden, gen_);
  nets_->concat->to(ctx.device);
  nets_->adam = std::make_unique<FlatAdam>(nets_->concat->parameters(), options_.lr);
}

DimeEstimator::~DimeEstimator() = default;

DimeEstimator::Outputs DimeEstimator::outputs(const Batch& batch, bool withMarginal) {
  const at::Tensor xs = criticInput(batch), &y = batch.y;
  const int64_t n = y.size(0);
  at::Tensor partner;  // the y each x meets in a marginal pair, unless all pairs are used
  if (options_.negatives == DimeOptions::Negatives::Derangement)
    partner = randomDerangement(n, pairing_, y.options());
  else if (options_.negatives == DimeOptions::Negatives::Permutation)
    partner = at::randperm(n, pairing_, y.options().dtype(at::kLong));
  const bool allPairs = !partner.defined();
  const FDivergence d = options_.divergence;
  // An evaluation reads the joint pairs alone: the marginal pairs are drawn all the same (each batch's draws stay
  // what they were), but not scored (all-pairs would run the critic on batch^2 pairs for nothing).
  if (!withMarginal) return {jointOutputs(batch, xs), {}};

  if (!nets_) {  // the oracle: log R is the exact PMI, T its inverse image
    const at::Tensor marginal =
        allPairs ? oraclePmiMatrix(*task_, batch) : task_->pmi(batch.x, batch.xp, y.index_select(0, partner));
    return {jointOutputs(batch, xs), dimeCriticOfLogRatio(d, marginal)};
  }
  if (nets_->separable) {
    const at::Tensor fx = nets_->separable->embedX(xs), gy = nets_->separable->embedY(y);
    if (allPairs) {
      const at::Tensor s = fx.matmul(gy.t());
      return {s.diagonal(), s};
    }
    return {(fx * gy).sum(1), (fx * gy.index_select(0, partner)).sum(1)};
  }
  if (allPairs) {  // every (x_i, y_j): [B, B, dx + dy] through the MLP
    const at::Tensor pairs =
        at::cat({xs.unsqueeze(1).expand({n, n, xs.size(1)}), y.unsqueeze(0).expand({n, n, y.size(1)})}, 2);
    const at::Tensor s = nets_->concat->forward(pairs);
    return {s.diagonal(), s};
  }
  return {jointOutputs(batch, xs), nets_->concat->forward(at::cat({xs, y.index_select(0, partner)}, 1))};
}

at::Tensor DimeEstimator::jointOutputs(const Batch& batch, const at::Tensor& xs) {
  if (!nets_) return dimeCriticOfLogRatio(options_.divergence, task_->pmi(batch.x, batch.xp, batch.y));
  if (nets_->separable) return (nets_->separable->embedX(xs) * nets_->separable->embedY(batch.y)).sum(1);
  return nets_->concat->forward(at::cat({xs, batch.y}, 1));
}

StepResult DimeEstimator::trainStep(const Batch& batch) {
  const Outputs o = outputs(batch);
  const at::Tensor l = dimeLoss(options_.divergence, o.joint, o.marginal);
  const at::Tensor reading = dimeLogRatio(options_.divergence, o.joint.detach()).mean();
  if (nets_->separable)
    nets_->separable->minimise(l);
  else
    descend(*nets_->adam, l);
  return {reading, l.detach()};
}

Evaluation DimeEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  const double v = dimeLogRatio(options_.divergence, outputs(batch, false).joint).mean().item<double>();
  return {v, {{readingName(options_.divergence), v}}};
}

}  // namespace milab
