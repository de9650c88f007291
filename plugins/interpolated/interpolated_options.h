#pragma once
// I_alpha's settings: the critic's (CriticOptions) and alpha, the weight of InfoNCE's baseline (key nce_weight);
// declared and read from a ParamMap by key here alone.
// Torch-free.
#include "method/critic_options.h"

namespace milab {

struct InterpolatedOptions {
  CriticOptions critic;
  double alpha = 0.5;
  static ParamSpecs extraSpecs();  // declared after the critic's (criticParamSpecs)
  static InterpolatedOptions from(const ParamMap& params);
};

}  // namespace milab
