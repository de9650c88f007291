#include "demi/demi_plugin.h"

#include "demi/variant_estimators.h"

namespace milab {

DemiPlugin::DemiPlugin()
    : DecomposedPlugin("demi", "DEMI (ground-truth p(y|x'))",
                       "I_NCE(x';y) + I_CNCE(x;y|x'), phi trained with negatives from the true p(y|x')") {}

std::unique_ptr<Estimator> DemiPlugin::create(const EstimatorContext& context) const {
  return makeDemiEstimator(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_demi_plugin.cpp"
