// DEMI-IS's estimator: phi trained by I_IS over marginal negatives (demi_is_plugin.h).
#include <ATen/ATen.h>

#include "demi/critic_pair.h"
#include "demi/decomposed_estimator.h"
#include "demi/demi_step.h"
#include "demi/variant_estimators.h"
#include "nn/bounds.h"
#include "nn/separable_critic.h"

namespace milab {

namespace {

class DemiIsEstimator final : public DecomposedEstimator {
 public:
  using DecomposedEstimator::DecomposedEstimator;

 protected:
  ConditionalTerm conditionalObjective(const Batch&, CriticPair& critics) override {
    const at::Tensor is = importanceSampledNce(positiveFirst(critics.phi()), positiveFirst(critics.psi()).detach());
    return {is, is};
  }
  std::optional<WrittenOutStep> writtenOutStep(const Batch& batch, SeparableCritic& critic) override {
    const DemiStep s = trainDemi(critic, batch.xp, batch.x, batch.y, DemiConditional::importanceSampled);
    return WrittenOutStep{s.unconditional, {s.conditional, s.conditional}};
  }
  QList<Term> ownTerms(const Batch&, CriticPair& critics) override {
    return {{"I_IS(x;y|x') [trains phi]",
             importanceSampledNce(positiveFirst(critics.phi()), positiveFirst(critics.psi())).item<double>()}};
  }
};

}  // namespace

std::unique_ptr<Estimator> makeDemiIsEstimator(const EstimatorContext& context) {
  return std::make_unique<DemiIsEstimator>(context);
}

}  // namespace milab
