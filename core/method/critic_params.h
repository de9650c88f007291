#pragma once
// Parameters every critic-based contrastive method declares (the DEMI paper's synthetic settings as defaults).
#include "method/method_plugin.h"
#include "params/param_spec.h"

namespace milab {

// K (contrastive set size), lr (Adam), hidden (units of the one hidden ReLU layer), embed (output size),
// critic (learned, or oracle: the task's analytic PMI, the best the bound can do at this K).
ParamSpecs criticParamSpecs(int minK);

// The MethodInfo of a critic-based method: its identity and criticParamSpecs(minK); add extras to .params.
MethodInfo criticMethodInfo(const QString& id, const QString& displayName, const QString& family,
                            const QString& summary, int minK = 2);

}  // namespace milab
