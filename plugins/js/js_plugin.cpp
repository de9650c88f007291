#include "js/js_plugin.h"

#include <ATen/ATen.h>

#include "method/critic_options.h"
#include "method/score_matrix_estimator.h"
#include "nn/bounds.h"

namespace milab {

MethodInfo JsPlugin::info() const {
  return scoreMatrixMethodInfo(
      "js", "JS-trained (NWJ estimate)", "comparator",
      "critic trained by the Jensen-Shannon f-GAN objective (optimum: PMI), MI read with NWJ at s + 1");
}

QList<Ceiling> JsPlugin::ceilings(const ParamMap&) const { return {}; }

std::unique_ptr<Estimator> JsPlugin::create(const EstimatorContext& context) const {
  // JS's optimal critic is the PMI and NWJ's is PMI + 1, hence the shift when reading the estimate.
  auto value = [](const at::Tensor& scores) { return nwjBound(scores + 1.0); };
  auto objective = [value](const at::Tensor& scores) {
    return valueOfWithGradientOf(value(scores), jsObjective(scores));
  };
  return std::make_unique<ScoreMatrixEstimator>(context,
                                                ScoreMatrixBound{"I_NWJ (JS-trained critic)", objective, value, 0.0});
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_js_plugin.cpp"
