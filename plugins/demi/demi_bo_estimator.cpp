// DEMI-BO's estimator: phi trained by the boosted bound I_BO (demi_bo_plugin.h).
#include <ATen/ATen.h>

#include "demi/critic_pair.h"
#include "demi/decomposed_estimator.h"
#include "demi/demi_step.h"
#include "demi/variant_estimators.h"
#include "nn/bounds.h"
#include "nn/separable_critic.h"

namespace milab {

namespace {

class DemiBoEstimator final : public DecomposedEstimator {
 public:
  using DecomposedEstimator::DecomposedEstimator;

 protected:
  // I_BO is a bound on the total MI, so the curve reads phi through I_IS on the same marginal candidates.
  ConditionalTerm conditionalObjective(const Batch&, CriticPair& critics) override {
    const at::Tensor psi = critics.psi().detach(), phi = critics.phi();
    const at::Tensor bo = inBatchNce(psi + phi);
    return {bo, importanceSampledNce(positiveFirst(phi.detach()), positiveFirst(psi))};
  }
  std::optional<WrittenOutStep> writtenOutStep(const Batch& batch, SeparableCritic& critic) override {
    const DemiStep s = trainDemi(critic, batch.xp, batch.x, batch.y, DemiConditional::boosted);
    return WrittenOutStep{s.unconditional, {s.conditional, s.importanceSampled}};
  }
  QList<Term> ownTerms(const Batch&, CriticPair& critics) override {
    return {{"I_BO [bounds I(x,x';y), trains phi]", inBatchNce(critics.psi() + critics.phi()).item<double>()}};
  }
};

}  // namespace

std::unique_ptr<Estimator> makeDemiBoEstimator(const EstimatorContext& context) {
  return std::make_unique<DemiBoEstimator>(context);
}

}  // namespace milab
