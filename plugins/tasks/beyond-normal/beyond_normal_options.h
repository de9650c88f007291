#pragma once
// The keys of task `beyond-normal` (a Beyond-Normal family with the user's parameters): their ParamSpecs, and the
// typed fields they are read into in one place (BeyondNormalOptions::from); the id grammar reads the fields.
#include "params/param_spec.h"

namespace milab {

// base, dim_x, dim_y, off_diag, n_interacting, strength, dof, correlation, epsilon, covariance, transforms.
ParamSpecs beyondNormalKeySpecs();

struct BeyondNormalOptions {
  QString base = "multinormal-dense";
  int dimX = 2, dimY = 2;
  double offDiag = 0.5;
  int nInteracting = 2;
  double strength = 2, dof = 1, correlation = 0.75, epsilon = 0.1;
  QString covariance;  // "1, 0.6; 0.6, 2", or "" for the bases that take none
  QString transforms;  // comma-separated, applied in this order
  static BeyondNormalOptions from(const ParamMap& params);
};

}  // namespace milab
