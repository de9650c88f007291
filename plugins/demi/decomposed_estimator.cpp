#include "demi/decomposed_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "demi/critic_pair.h"
#include "nn/bounds.h"
#include "nn/separable_critic.h"

namespace milab {

DecomposedEstimator::DecomposedEstimator(const EstimatorContext& ctx)
    : ctx_(ctx),
      options_(DecomposedOptions::from(ctx.params)) {
  const CriticOptions& c = options_.critic;
  if (!c.oracle)
    critic_ = std::make_unique<SeparableCritic>(ctx.task->criticInputDim(), ctx.task->dimY(), c.hidden, c.embed, c.lr,
                                                ctx.device, ctx_.generator);
}

DecomposedEstimator::~DecomposedEstimator() = default;

at::Tensor DecomposedEstimator::groundTruthNegatives(const Batch& batch) {
  return ctx_.task->sampleYGivenXp(batch.xp, perTerm() - 1, ctx_.noise);
}

at::Tensor DecomposedEstimator::groundTruthCnce(const Batch& batch, CriticPair& critics) {
  return critics.cnce(groundTruthNegatives(batch));
}

StepResult DecomposedEstimator::trainStep(const Batch& batch) {
  if (const std::optional<WrittenOutStep> s = autogradOnly_ ? std::nullopt : writtenOutStep(batch, *critic_))
    return {StepReading(s->unconditional) + s->conditional.estimate,
            -StepReading(s->unconditional + s->conditional.objective)};
  CriticPair critics(critic_.get(), ctx_.task, batch);
  const at::Tensor unconditional = inBatchNce(critics.psi());
  const ConditionalTerm conditional = conditionalObjective(batch, critics);
  const at::Tensor objective = unconditional + conditional.objective;
  const StepReading estimate = StepReading(unconditional) + conditional.estimate;
  critic_->minimise(-objective);
  return {estimate, -StepReading(objective)};
}

Evaluation DecomposedEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  CriticPair critics(critic_.get(), ctx_.task, batch);
  const at::Tensor psi = critics.psi();
  const double unconditional = inBatchNce(psi).item<double>();
  double conditional = 0;
  QString conditionalName;
  if (options_.marginalProtocol) {
    conditional = importanceSampledNce(positiveFirst(critics.phi()), positiveFirst(psi)).item<double>();
    conditionalName = "I_IS(x;y|x')";
  } else {
    conditional = groundTruthCnce(batch, critics).item<double>();
    conditionalName = "I_CNCE(x;y|x')";
  }
  Evaluation e{unconditional + conditional, {{"I_NCE(x';y)", unconditional}, {conditionalName, conditional}}};
  e.terms << ownTerms(batch, critics);
  return e;
}

}  // namespace milab
