// torch first: its headers must precede Qt's (see BUILD.md pitfalls).
#include <ATen/ATen.h>

#include "infonce/infonce_plugin.h"

#include <cmath>

#include "method/critic_params.h"
#include "method/score_matrix_estimator.h"
#include "nn/bounds.h"

namespace milab {

MethodInfo InfoNcePlugin::info() const {
  MethodInfo i;
  i.id = "infonce";
  i.displayName = "InfoNCE";
  i.family = "contrastive";
  i.summary = "I_NCE with in-batch negatives from p(y); critic f([x,x'])^T g(y); never above log K";
  i.params = criticParamSpecs(2);
  return i;
}

QList<Ceiling> InfoNcePlugin::ceilings(const ParamMap& params) const {
  return {{"log K", std::log(params.value("K").toDouble())}};
}

std::unique_ptr<Estimator> InfoNcePlugin::create(const EstimatorContext& context) const {
  return std::make_unique<ScoreMatrixEstimator>(context, ScoreMatrixBound{"I_NCE", inBatchNce, inBatchNce, 0.0});
}

}  // namespace milab
