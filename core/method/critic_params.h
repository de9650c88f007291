#pragma once
// Parameters every critic-based contrastive method declares (the DEMI paper's synthetic settings as defaults).
#include "params/param_spec.h"

namespace milab {

// K (contrastive set size), lr (Adam), hidden (units of the one hidden ReLU layer), embed (output size).
ParamSpecs criticParamSpecs(int minK);

}  // namespace milab
