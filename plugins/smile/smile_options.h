#pragma once
// SMILE's settings: the critic's (CriticOptions) and tau, the clip of the partition term; declared and
// read from a ParamMap by key here alone.
// Torch-free.
#include "method/critic_options.h"

namespace milab {

struct SmileOptions {
  CriticOptions critic;
  double tau = 5.0;
  static ParamSpecs extraSpecs();  // declared after the critic's (criticParamSpecs)
  static SmileOptions from(const ParamMap& params);
};

}  // namespace milab
