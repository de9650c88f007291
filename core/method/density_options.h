#pragma once
// Parameters shared by the estimators built on a learned density of y (DoE, CLUB): batch, lr, hidden and
// critic (learned: train q by maximum likelihood; oracle: the task's exact densities, nothing trained), and the
// options they are read into.
// Torch-free.
#include "params/param_spec.h"

namespace milab {

ParamSpecs densityModelParamSpecs(const QString& oracleMeaning);

// Those settings as typed fields, read from a validated ParamMap in one place (the only reader of them by key).
struct DensityOptions {
  int batch = 128;
  double lr = 1e-3;
  int hidden = 100;
  bool oracle = false;  // critic = oracle
  static DensityOptions from(const ParamMap& params);
};

}  // namespace milab
