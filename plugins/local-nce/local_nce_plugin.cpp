#include "local-nce/local_nce_plugin.h"

#include <ATen/ATen.h>

#include <cmath>

#include "method/critic_options.h"
#include "method/score_matrix_estimator.h"

namespace milab {

MethodInfo LocalNcePlugin::info() const {
  MethodInfo i = scoreMatrixMethodInfo(
      "local-nce", "Local NCE (binary)", "contrastive",
      "binary NCE, positive vs N-1 in-batch negatives (N = K); optimal s = PMI - log(N-1), MI read as "
      "E_joint[s + log(N-1)] (a plug-in reading, not a lower bound)");
  // E_joint[s] + log(N-1) equals the MI at the optimal critic only; a critic off its optimum can read above it.
  i.lowerBound = false;
  return i;
}

QList<Ceiling> LocalNcePlugin::ceilings(const ParamMap&) const { return {}; }

std::unique_ptr<Estimator> LocalNcePlugin::create(const EstimatorContext& context) const {
  const double logNegatives = std::log(double(CriticOptions::from(context.params).K) - 1.0);
  // Maximise log s(s+) + sum_j log s(-s_j-), per row (nce notes sec. 2), averaged over rows.
  auto objective = [](const at::Tensor& scores) {
    const at::Tensor positive = at::log_sigmoid(scores.diagonal());
    const at::Tensor negative = at::log_sigmoid(-scores).sum(1) - at::log_sigmoid(-scores.diagonal());
    return (positive + negative).mean();
  };
  auto value = [logNegatives](const at::Tensor& scores) { return scores.diagonal().mean() + logNegatives; };
  return std::make_unique<ScoreMatrixEstimator>(
      context, ScoreMatrixBound{"E_joint[s] + log(N-1)", objective, value, -logNegatives});
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_local_nce_plugin.cpp"
