#include "method/baseline_bound_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "method/critic_options.h"
#include "method/score_matrix_estimator.h"
#include "nn/flat_adam.h"
#include "nn/joint_critic.h"
#include "nn/separable_critic.h"

namespace milab {

BaselineBoundEstimator::BaselineBoundEstimator(const EstimatorContext& ctx, BaselineBound bound)
    : BaselineBoundEstimator(ctx, CriticOptions::from(ctx.params), std::move(bound)) {}

BaselineBoundEstimator::BaselineBoundEstimator(const EstimatorContext& ctx, const CriticOptions& o,
                                               BaselineBound bound)
    : K_(o.K), task_(ctx.task), bound_(std::move(bound)) {
  if (o.oracle) return;
  at::Generator gen = ctx.generator;
  const int64_t xDim = criticInputDim(*task_);
  if (o.joint)
    joint_ = std::make_unique<JointCritic>(xDim, task_->dimY(), o.layers, o.lr, ctx.device, gen);
  else
    critic_ = std::make_unique<SeparableCritic>(xDim, task_->dimY(), o.hidden, o.embed, o.lr, ctx.device, gen);
  baseline_ = Mlp(xDim, o.hidden, 1, gen);
  baseline_->to(ctx.device);
  adam_ = std::make_unique<FlatAdam>(baseline_->parameters(), o.lr);
}

BaselineBoundEstimator::~BaselineBoundEstimator() = default;

at::Tensor BaselineBoundEstimator::bound(const Batch& batch) {
  if (!critic_ && !joint_) {
    const at::Tensor scores = oraclePmiMatrix(*task_, batch);
    return bound_.value(scores, at::zeros({scores.size(0)}, scores.options()));
  }
  const at::Tensor input = criticInput(batch);
  const at::Tensor scores = critic_ ? critic_->scores(input, batch.y) : joint_->scores(input, batch.y);
  return bound_.value(scores, baseline_->forward(input).squeeze(1));
}

StepResult BaselineBoundEstimator::trainStep(const Batch& batch) {
  adam_->zero_grad();
  // The critic's backward written out (SeparableCritic's or JointCritic's trainOnScores); autograd over the bound's
  // few operations carries the gradient at the scores out and fills the baseline's gradients on the way.
  const at::Tensor input = criticInput(batch);
  const at::Tensor baseline = baseline_->forward(input).squeeze(1);
  const ScoresObjective objective = [&](const at::Tensor& scores) {
    return scoresBackwardByAutograd([&](const at::Tensor& s) { return bound_.value(s, baseline); }, scores);
  };
  const at::Tensor b =
      critic_ ? critic_->trainOnScores(input, batch.y, objective) : joint_->trainOnScores(input, batch.y, objective);
  adam_->step();
  return {b, -StepReading(b)};
}

Evaluation BaselineBoundEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  const double v = bound(batch).item<double>();
  return {v, {{bound_.name, v}}};
}

}  // namespace milab
