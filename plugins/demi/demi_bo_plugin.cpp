#include "demi/demi_bo_plugin.h"

#include <ATen/ATen.h>

#include "demi/critic_pair.h"
#include "demi/decomposed_estimator.h"
#include "demi/demi_step.h"
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

DemiBoPlugin::DemiBoPlugin()
    : DecomposedPlugin("demi-bo", "DEMI-BO (boosted critic)",
                       "I_NCE(x';y) + I_CNCE(x;y|x'), phi trained by I_BO: InfoNCE of psi + phi (eq. 10)") {}

std::unique_ptr<Estimator> DemiBoPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<DemiBoEstimator>(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_demi_bo_plugin.cpp"
