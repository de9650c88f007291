#include "demi/demi_is_plugin.h"

#include "demi/variant_estimators.h"

namespace milab {

DemiIsPlugin::DemiIsPlugin()
    : DecomposedPlugin("demi-is", "DEMI-IS (importance-sampled CNCE)",
                       "I_NCE(x';y) + I_CNCE(x;y|x'), phi trained by I_IS over marginal negatives (eq. 9)") {}

std::unique_ptr<Estimator> DemiIsPlugin::create(const EstimatorContext& context) const {
  return makeDemiIsEstimator(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_demi_is_plugin.cpp"
