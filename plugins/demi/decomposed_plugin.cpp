#include "demi/decomposed_plugin.h"

#include <cmath>

#include "demi/decomposed_options.h"
#include "method/critic_options.h"

namespace milab {

DecomposedPlugin::DecomposedPlugin(QString id, QString displayName, QString summary)
    : id_(std::move(id)), displayName_(std::move(displayName)), summary_(std::move(summary)) {}

MethodInfo DecomposedPlugin::info() const {
  MethodInfo i = criticMethodInfo(id_, displayName_, "decomposed", summary_, 4);
  i.params << protocolParamSpec();
  i.needsSubview = true;
  return i;
}

QString DecomposedPlugin::validate(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  const DecomposedOptions o = DecomposedOptions::from(params);
  const int K = o.critic.K;
  if (!o.marginalProtocol && K % 2 != 0)
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
  const DecomposedOptions o = DecomposedOptions::from(params);
  const double K = o.critic.K, perTerm = o.marginalProtocol ? K : K / 2;
  const QString pairs = o.marginalProtocol ? QStringLiteral("K x K") : QStringLiteral("K/2 x K/2");
  if (o.critic.oracle) return oraclePairsNeed(perTerm * perTerm, task, taskParams, "K", pairs);
  return negativePairsNeed(perTerm, perTerm, o.critic.hidden, pairs);
}

QList<Ceiling> DecomposedPlugin::ceilings(const ParamMap& params) const {
  const DecomposedOptions o = DecomposedOptions::from(params);
  const double K = o.critic.K;
  if (o.marginalProtocol) return {{"2 log K", 2.0 * std::log(K)}};
  return {{"2 log(K/2)", 2.0 * std::log(K / 2.0)}};
}

}  // namespace milab
