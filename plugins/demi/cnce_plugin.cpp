#include "demi/cnce_plugin.h"

#include <cmath>

#include "demi/variant_estimators.h"
#include "method/critic_options.h"
#include "method/memory_need.h"

namespace milab {

MethodInfo CncePlugin::info() const {
  MethodInfo i = criticMethodInfo("cnce", "Conditional NCE (I_CNCE)", "decomposed",
                                  "lower bound on I(x;y|x') with K-1 negatives per row from the true p(y|x')", 2);
  i.needsSubview = true;
  i.target = Target::ConditionalMi;
  return i;
}

QList<Ceiling> CncePlugin::ceilings(const ParamMap& params) const {
  return {{"log K", std::log(double(CriticOptions::from(params).K))}};
}

MemoryNeed CncePlugin::memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const CriticOptions o = CriticOptions::from(params);
  const double K = o.K;  // K rows, K - 1 negatives each
  if (o.oracle) return oraclePairsNeed(K * (K - 1), task, taskParams, "K", QStringLiteral("K x (K - 1)"));
  return negativePairsNeed(K, K - 1, o.hidden, QStringLiteral("K x (K - 1)"));
}

std::unique_ptr<Estimator> CncePlugin::create(const EstimatorContext& context) const {
  return makeCnceEstimator(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_cnce_plugin.cpp"
