#pragma once
// flow-mi's settings: their ParamSpecs and the typed options read from a validated ParamMap in one place
// (flowMiOptions: the only reader of the family's ParamMap by key).
#include "params/param_spec.h"

namespace milab {

struct FlowMiOptions {
  int64_t batch = 256;
  double lr = 1e-3;
  int64_t depth = 4;
  int64_t width = 64;
};

ParamSpecs flowMiParamSpecs();
FlowMiOptions flowMiOptions(const ParamMap& params);

}  // namespace milab
