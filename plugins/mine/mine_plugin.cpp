#include "mine/mine_plugin.h"

#include <ATen/ATen.h>

#include <cmath>
#include <memory>

#include "method/critic_options.h"
#include "method/score_matrix_estimator.h"
#include "mine/mine_options.h"
#include "nn/bounds.h"

namespace milab {

MethodInfo MinePlugin::info() const {
  MethodInfo i = scoreMatrixMethodInfo(
      "mine", "MINE (DV, moving average)", "comparator",
      "Donsker-Varadhan bound; the gradient of log E[e^s] uses a moving average of E[e^s] (Belghazi et al.); the "
      "in-batch reading is biased upward at small K (Jensen: log of a batch mean of e^s)");
  i.params << MineOptions::extraSpecs();
  // asinh on the heavy-tailed columns only: closer than asinh on every column on both halves of the Beyond-Normal
  // suite (docs/benchmark.md, "The two recipes task by task").
  i.labRecipeTransform = QStringLiteral("tails");
  return i;
}

QList<Ceiling> MinePlugin::ceilings(const ParamMap&) const { return {}; }

std::unique_ptr<Estimator> MinePlugin::create(const EstimatorContext& context) const {
  const double momentum = MineOptions::from(context.params).momentum;
  auto logAverage = std::make_shared<at::Tensor>();  // log of the running mean of E_marginals[e^s]
  auto objective = [logAverage, momentum](const at::Tensor& scores) {
    // In the log domain: on raw Student-t columns at bmi's lr 0.1, E[e^s] overflowed a float and DV (momentum 0)
    // stopped on a non-finite loss where bmi's DV, a log-mean-exp, reads on.
    const at::Tensor now = logMeanExpOffDiagonal(scores).detach();
    *logAverage = logAverage->defined() && momentum > 0
                      ? at::logaddexp(*logAverage + std::log(momentum), now + std::log1p(-momentum))
                      : now;
    *logAverage = logAverage->clamp_min(std::log(1e-4));
    // The value is DV's; the gradient of log E[e^s] divides by the moving average instead of one batch's mean,
    // which cuts the bias of a one-batch estimate (nn/bounds.h).
    return mineObjective(scores, *logAverage);
  };
  ScoreMatrixBound bound{"I_DV", objective, dvBound, 0.0};
  // A whole held-out part as bmi reads it: its MINE (a moving average) on the joint pairs and one permutation of the
  // ys, its DV (momentum 0: no average) on every off-diagonal pair.
  if (momentum > 0)
    bound.onOnePermutation = dvOnPairs;
  else
    bound.onEveryPair = dvOfEveryPair;
  return std::make_unique<ScoreMatrixEstimator>(context, bound);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_mine_plugin.cpp"
