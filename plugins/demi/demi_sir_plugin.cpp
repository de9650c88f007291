#include "demi/demi_sir_plugin.h"

#include "demi/decomposed_options.h"
#include "demi/variant_estimators.h"

namespace milab {

DemiSirPlugin::DemiSirPlugin()
    : DecomposedPlugin(
          "demi-sir", "DEMI-SIR (sampling importance resampling)",
          "I_NCE(x';y) + I_CNCE(x;y|x'), phi trained by I_SIR: negatives resampled from M marginal samples (eq. 8)") {}

MethodInfo DemiSirPlugin::info() const {
  MethodInfo i = DecomposedPlugin::info();
  i.params << sirPoolParamSpec();
  return i;
}

QString DemiSirPlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const QString err = DecomposedPlugin::validate(params, task, taskParams);
  if (!err.isEmpty()) return err;
  // Each row resamples its candidates' negatives from the pool: K/2 - 1 under the conditional protocol, K - 1
  // under the marginal one. A pool smaller than the candidates of one row would repeat draws within every row.
  const DecomposedOptions o = DecomposedOptions::from(params);
  const bool marginal = o.marginalProtocol;
  const int K = o.critic.K, M = o.sirPool, candidates = o.perTerm();
  if (M < candidates)
    return QStringLiteral(
               "M: must be at least %1 = %2 (the candidates per row under the %3 protocol) for "
               "demi-sir, got %4")
        .arg(marginal ? "K" : "K/2")
        .arg(candidates)
        .arg(marginal ? "marginal" : "conditional")
        .arg(M);
  return {};
}

std::unique_ptr<Estimator> DemiSirPlugin::create(const EstimatorContext& context) const {
  return makeDemiSirEstimator(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_demi_sir_plugin.cpp"
