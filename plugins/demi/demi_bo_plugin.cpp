#include "demi/demi_bo_plugin.h"

#include "demi/variant_estimators.h"

namespace milab {

DemiBoPlugin::DemiBoPlugin()
    : DecomposedPlugin("demi-bo", "DEMI-BO (boosted critic)",
                       "I_NCE(x';y) + I_CNCE(x;y|x'), phi trained by I_BO: InfoNCE of psi + phi (eq. 10)") {}

std::unique_ptr<Estimator> DemiBoPlugin::create(const EstimatorContext& context) const {
  return makeDemiBoEstimator(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_demi_bo_plugin.cpp"
