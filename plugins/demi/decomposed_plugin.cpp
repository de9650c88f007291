#include "demi/decomposed_plugin.h"

#include <cmath>

#include "method/critic_params.h"

namespace milab {

bool usesMarginalProtocol(const ParamMap& params) { return params.value("protocol").toString() == "marginal"; }

DecomposedPlugin::DecomposedPlugin(QString id, QString displayName, QString summary)
    : id_(std::move(id)), displayName_(std::move(displayName)), summary_(std::move(summary)) {}

MethodInfo DecomposedPlugin::info() const {
  MethodInfo i = criticMethodInfo(id_, displayName_, "decomposed", summary_, 4);
  i.params << ParamSpec::choice("protocol", {"conditional", "marginal"}, "conditional",
                                "evaluation (DEMI Fig. 2): conditional = I_NCE + I_CNCE with true p(y|x') "
                                "negatives, K/2 each; marginal = I_NCE + I_IS over one shared set of K");
  i.needsSubview = true;
  return i;
}

QString DecomposedPlugin::validate(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  const int K = params.value("K").toInt();
  if (!usesMarginalProtocol(params) && K % 2 != 0)
    return QStringLiteral(
               "K: must be an even integer in [4, 65536] for %1 under the conditional protocol "
               "(K/2 candidates per term), got %2")
        .arg(id_)
        .arg(K);
  return {};
}

MemoryNeed DecomposedPlugin::memoryNeed(const ParamMap& params, const TaskInfo& task,
                                        const ParamMap& taskParams) const {
  // Each term's rows meet as many candidates as there are rows: K under the marginal protocol, K/2 otherwise.
  const double K = params.value("K").toDouble(), perTerm = usesMarginalProtocol(params) ? K : K / 2;
  const QString pairs = usesMarginalProtocol(params) ? QStringLiteral("K x K") : QStringLiteral("K/2 x K/2");
  if (usesOracleCritic(params)) return oraclePairsNeed(perTerm * perTerm, task, taskParams, "K", pairs);
  return negativePairsNeed(perTerm, perTerm, params.value("hidden").toDouble(), pairs);
}

QList<Ceiling> DecomposedPlugin::ceilings(const ParamMap& params) const {
  const double K = params.value("K").toDouble();
  if (usesMarginalProtocol(params)) return {{"2 log K", 2.0 * std::log(K)}};
  return {{"2 log(K/2)", 2.0 * std::log(K / 2.0)}};
}

}  // namespace milab
