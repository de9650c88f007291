#pragma once
// Parameters shared by the estimators built on a learned density of y (DoE, CLUB): batch, lr, hidden and
// critic (learned: train q by maximum likelihood; oracle: the task's exact densities, nothing trained).
// Torch-free.
#include "params/param_spec.h"

namespace milab {

ParamSpecs densityModelParamSpecs(const QString& oracleMeaning);

}  // namespace milab
