#pragma once
// MINE's settings: the critic's (CriticOptions) and the moving average's momentum; declared and read from a
// ParamMap by key here alone.
// Torch-free.
#include "method/critic_options.h"

namespace milab {

struct MineOptions {
  CriticOptions critic;
  double momentum = 0.9;
  static ParamSpecs extraSpecs();  // declared after the critic's (criticParamSpecs)
  static MineOptions from(const ParamMap& params);
};

}  // namespace milab
