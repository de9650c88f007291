#include "demi/demi_var_plugin.h"

#include "demi/variant_estimators.h"

namespace milab {

DemiVarPlugin::DemiVarPlugin()
    : DecomposedPlugin("demi-var", "DEMI-VAR (learned proposal q(y|x'))",
                       "I_NCE(x';y) + I_CNCE(x;y|x'), phi trained by I_VAR: CNCE with negatives from a learned "
                       "Gaussian q(y|x') minus KL(p||q) (eq. 7)") {}

std::unique_ptr<Estimator> DemiVarPlugin::create(const EstimatorContext& context) const {
  return makeDemiVarEstimator(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_demi_var_plugin.cpp"
