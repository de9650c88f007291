#include "interpolated/interpolated_plugin.h"

#include <cmath>

#include "method/baseline_bound_estimator.h"
#include "method/critic_params.h"
#include "nn/bounds.h"

namespace milab {

MethodInfo InterpolatedPlugin::info() const {
  MethodInfo i = criticMethodInfo(
      "interpolated", "Interpolated I_alpha (Poole et al.)", "comparator",
      "multi-sample bound whose baseline mixes InfoNCE's (weight alpha, key nce_weight) with a learned one; trades "
      "bias for variance");
  // Poole et al.'s alpha, under its own key: "alpha" is gaussian3's split of the MI, and one flat experiment
  // cannot hold two alphas (summary.json would record one of them and a rerun would give another run).
  ParamSpec alpha =
      ParamSpec::real("nce_weight", 0.5, 0.0, 1.0,
                      "I_alpha's alpha, the weight of the InfoNCE baseline: near 1 is InfoNCE-like, near 0 is TUBA-like",
                      true, true);
  alpha.label = "I_alpha weight alpha";
  i.params << alpha;
  return i;
}

QList<Ceiling> InterpolatedPlugin::ceilings(const ParamMap& params) const {
  const double K = params.value("K").toDouble(), alpha = params.value("nce_weight").toDouble();
  // The joint term's baseline includes the positive among the K-1 others of the leave-one-out mean, so
  // s_ii - baseline <= log((K-1)/alpha); the marginal term adds at most 1 (nn/bounds.h).
  return {{"1 + log((K-1)/alpha)", 1.0 + std::log((K - 1) / alpha)}};
}

std::unique_ptr<Estimator> InterpolatedPlugin::create(const EstimatorContext& context) const {
  const double alpha = context.params.value("nce_weight").toDouble();
  auto value = [alpha](const at::Tensor& scores, const at::Tensor& logBaseline) {
    return interpolatedBound(scores, logBaseline, alpha);
  };
  return std::make_unique<BaselineBoundEstimator>(context, BaselineBound{"I_alpha", value});
}

}  // namespace milab
