#include "dime_plugin.h"

#include "dime_estimator.h"
#include "dime_options.h"

namespace milab {

MethodInfo DimePlugin::info() const {
  MethodInfo i;
  switch (divergence_) {
    case FDivergence::Kl:
      i.id = "kl-dime";
      i.displayName = "KL-DIME (f-DIME, KL divergence)";
      i.summary =
          "f-DIME with the KL divergence: D = softplus(T) minimises -E_joint log D + E_marginal D over joint and "
          "deranged pairs (optimum D = p(x,y)/p(x)p(y)); reads E_joint log D. Not capped by log(batch)";
      break;
    case FDivergence::Gan:
      i.id = "gan-dime";
      i.displayName = "GAN-DIME (f-DIME, GAN divergence)";
      i.summary =
          "f-DIME with the GAN (Jensen-Shannon) divergence: D = sigmoid(T) classifies deranged pairs (label 1) from "
          "joint ones (label 0) by cross-entropy (optimum D = q/(p+q)); reads E_joint log((1-D)/D) = -E_joint T. "
          "Not capped by log(batch)";
      break;
    case FDivergence::Hellinger:
      i.id = "hd-dime";
      i.displayName = "HD-DIME (f-DIME, squared Hellinger)";
      i.summary =
          "f-DIME with the squared Hellinger distance: D = softplus(T) minimises E_joint D + E_marginal 1/D "
          "(optimum D = sqrt(p(x)p(y)/p(x,y))); reads -2 E_joint log D. Not capped by log(batch)";
      break;
  }
  i.family = "discriminative";
  i.params = dimeParamSpecs();
  i.lowerBound = false;  // E_joint log R of a learned R: neither a lower nor an upper bound
  return i;
}

MemoryNeed DimePlugin::memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const DimeOptions o = dimeOptions(divergence_, params);
  const bool allPairs = o.negatives == DimeOptions::Negatives::AllPairs;
  const double n = double(o.batch);
  if (o.critic == DimeOptions::Critic::Oracle)
    return oraclePairsNeed(allPairs ? n * n : 2 * n, task, taskParams, "batch",
                           allPairs ? "batch^2 pairs" : "2 x batch pairs");
  if (!allPairs) return {};  // batch x hidden activations: nothing large
  if (o.critic == DimeOptions::Critic::Separable) {
    ParamMap asK = params;  // a few batch x batch score matrices, as the score-matrix critics hold at K
    asK.insert("K", qlonglong(o.batch));
    MemoryNeed need = scoreMatrixNeed(asK, task, taskParams);
    need.key = "batch";
    need.advice = "lower batch, or use negatives derangement";
    return need;
  }
  // The concatenated critic on every pair: batch^2 rows through hidden + hidden/2 units.
  MemoryNeed need = negativePairsNeed(n, n, 1.5 * double(o.hidden), "batch^2 pairs through the MLP");
  need.key = "batch";
  need.advice = "lower batch or hidden, or use negatives derangement";
  return need;
}

std::unique_ptr<Estimator> DimePlugin::create(const EstimatorContext& context) const {
  return std::make_unique<DimeEstimator>(context, divergence_);
}

}  // namespace milab
