#include "smile/smile_plugin.h"

#include <ATen/ATen.h>

#include "method/critic_options.h"
#include "method/score_matrix_estimator.h"
#include "nn/bounds.h"
#include "smile/smile_options.h"

namespace milab {

MethodInfo SmilePlugin::info() const {
  MethodInfo i = scoreMatrixMethodInfo(
      "smile", "SMILE", "comparator",
      "DV with the partition term over scores clipped to [-tau, tau]; critic trained by JS (Song & Ermon); "
      "the clip trades bias for variance: not a lower bound; like DV, biased upward at small K (log of a batch "
      "mean)");
  i.lowerBound = false;  // clipping the partition term can lift the reading above DV, hence above the MI
  i.params << SmileOptions::extraSpecs();
  return i;
}

QList<Ceiling> SmilePlugin::ceilings(const ParamMap&) const { return {}; }

std::unique_ptr<Estimator> SmilePlugin::create(const EstimatorContext& context) const {
  const double tau = SmileOptions::from(context.params).tau;
  auto value = [tau](const at::Tensor& scores) {
    return scores.diagonal().mean() - logMeanExpOffDiagonal(scores.clamp(-tau, tau));
  };
  auto objective = [value](const at::Tensor& scores) {
    return valueOfWithGradientOf(value(scores), jsObjective(scores));
  };
  return std::make_unique<ScoreMatrixEstimator>(context, ScoreMatrixBound{"I_SMILE", objective, value, 0.0});
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_smile_plugin.cpp"
