#include "infonce/infonce_plugin.h"

#include <ATen/ATen.h>

#include <cmath>

#include "method/critic_options.h"
#include "method/score_matrix_estimator.h"
#include "nn/bounds.h"

namespace milab {

MethodInfo InfoNcePlugin::info() const {
  MethodInfo i =
      scoreMatrixMethodInfo("infonce", "InfoNCE", "contrastive",
                            "I_NCE with in-batch negatives from p(y); critic f([x,x'])^T g(y); never above log K");
  // asinh on the heavy-tailed columns only: closer than asinh on every column on both halves of the Beyond-Normal
  // suite (docs/benchmark.md, "The two recipes task by task").
  i.labRecipeTransform = QStringLiteral("tails");
  return i;
}

QList<Ceiling> InfoNcePlugin::ceilings(const ParamMap& params) const {
  return {{"log K", std::log(double(CriticOptions::from(params).K))}};
}

std::unique_ptr<Estimator> InfoNcePlugin::create(const EstimatorContext& context) const {
  return std::make_unique<ScoreMatrixEstimator>(context, ScoreMatrixBound{"I_NCE", inBatchNce, {}, 0.0, true});
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_infonce_plugin.cpp"
