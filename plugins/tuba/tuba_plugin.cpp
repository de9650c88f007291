#include "tuba/tuba_plugin.h"

#include <ATen/ATen.h>

#include "method/baseline_bound_estimator.h"
#include "method/critic_options.h"
#include "nn/bounds.h"

namespace milab {

MethodInfo TubaPlugin::info() const {
  return scoreMatrixMethodInfo("tuba", "TUBA (learned baseline)", "comparator",
                          "1 + E_joint[s - l(x)] - E_marginals[e^(s - l(x))] with a learned log-baseline l(x)");
}

QList<Ceiling> TubaPlugin::ceilings(const ParamMap&) const { return {}; }

std::unique_ptr<Estimator> TubaPlugin::create(const EstimatorContext& context) const {
  auto value = [](const at::Tensor& scores, const at::Tensor& logBaseline) {
    return tubaBound(scores - logBaseline.unsqueeze(1));  // row i is conditioned on x_i
  };
  return std::make_unique<BaselineBoundEstimator>(context, BaselineBound{"I_TUBA", value});
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_tuba_plugin.cpp"
