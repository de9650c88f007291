#include "demi/demi_is_plugin.h"

#include <ATen/ATen.h>

#include "demi/critic_pair.h"
#include "demi/decomposed_estimator.h"
#include "demi/demi_step.h"
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

DemiIsPlugin::DemiIsPlugin()
    : DecomposedPlugin("demi-is", "DEMI-IS (importance-sampled CNCE)",
                       "I_NCE(x';y) + I_CNCE(x;y|x'), phi trained by I_IS over marginal negatives (eq. 9)") {}

std::unique_ptr<Estimator> DemiIsPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<DemiIsEstimator>(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_demi_is_plugin.cpp"
