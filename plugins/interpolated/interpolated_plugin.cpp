#include "interpolated/interpolated_plugin.h"

#include <cmath>

#include "method/baseline_bound_estimator.h"
#include "interpolated/interpolated_options.h"
#include "method/critic_options.h"
#include "nn/bounds.h"

namespace milab {

MethodInfo InterpolatedPlugin::info() const {
  MethodInfo i = scoreMatrixMethodInfo(
      "interpolated", "Interpolated I_alpha (Poole et al.)", "comparator",
      "multi-sample bound whose baseline mixes InfoNCE's (weight alpha, key nce_weight) with a learned one; trades "
      "bias for variance");
  i.params << InterpolatedOptions::extraSpecs();
  return i;
}

QList<Ceiling> InterpolatedPlugin::ceilings(const ParamMap& params) const {
  const InterpolatedOptions o = InterpolatedOptions::from(params);
  const double K = o.critic.K, alpha = o.alpha;
  // The joint term's baseline includes the positive among the K-1 others of the leave-one-out mean, so
  // s_ii - baseline <= log((K-1)/alpha); the marginal term adds at most 1 (nn/bounds.h).
  return {{"1 + log((K-1)/alpha)", 1.0 + std::log((K - 1) / alpha)}};
}

std::unique_ptr<Estimator> InterpolatedPlugin::create(const EstimatorContext& context) const {
  const double alpha = InterpolatedOptions::from(context.params).alpha;
  auto value = [alpha](const at::Tensor& scores, const at::Tensor& logBaseline) {
    return interpolatedBound(scores, logBaseline, alpha);
  };
  return std::make_unique<BaselineBoundEstimator>(context, BaselineBound{"I_alpha", value});
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_interpolated_plugin.cpp"
