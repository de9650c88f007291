// DEMI's estimator: phi trained by I_CNCE with negatives from the true p(y|x') (demi_plugin.h).
#include "demi/decomposed_estimator.h"
#include "demi/demi_step.h"
#include "demi/variant_estimators.h"
#include "nn/separable_critic.h"

namespace milab {

namespace {

// DEMI with the ground-truth conditional: phi is trained by I_CNCE with negatives from the true p(y|x').
class DemiEstimator final : public DecomposedEstimator {
 public:
  using DecomposedEstimator::DecomposedEstimator;

 protected:
  std::optional<WrittenOutStep> writtenOutStep(const Batch& batch, SeparableCritic& critic) override {
    const DemiStep s =
        trainDemi(critic, batch.xp, batch.x, batch.y, DemiConditional::cnceNegatives, groundTruthNegatives(batch));
    return WrittenOutStep{s.unconditional, {s.conditional, s.conditional}};
  }
  ConditionalTerm conditionalObjective(const Batch& batch, CriticPair& critics) override {
    const at::Tensor cnce = groundTruthCnce(batch, critics);
    return {cnce, cnce};
  }
};

}  // namespace

std::unique_ptr<Estimator> makeDemiEstimator(const EstimatorContext& context) {
  return std::make_unique<DemiEstimator>(context);
}

}  // namespace milab
