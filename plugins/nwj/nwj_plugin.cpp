#include "nwj/nwj_plugin.h"

#include <ATen/ATen.h>

#include "method/critic_options.h"
#include "method/score_matrix_estimator.h"
#include "nn/bounds.h"

namespace milab {

MethodInfo NwjPlugin::info() const {
  MethodInfo i = scoreMatrixMethodInfo(
      "nwj", "NWJ", "comparator",
      "E_joint[s] - e^-1 E_marginals[e^s] over in-batch pairs; unbiased but high variance at large MI");
  // asinh on the heavy-tailed columns only: closer than asinh on every column on both halves of the Beyond-Normal
  // suite (docs/benchmark.md, "The two recipes task by task").
  i.labRecipeTransform = QStringLiteral("tails");
  return i;
}

QList<Ceiling> NwjPlugin::ceilings(const ParamMap&) const { return {}; }

std::unique_ptr<Estimator> NwjPlugin::create(const EstimatorContext& context) const {
  ScoreMatrixBound bound{"I_NWJ", nwjBound, {}, 1.0};
  bound.onEveryPair = nwjOfEveryPair;  // a whole held-out part: every off-diagonal pair, as bmi reads it
  return std::make_unique<ScoreMatrixEstimator>(context, bound);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_nwj_plugin.cpp"
