#include "method/critic_options.h"

namespace milab {

ParamSpecs criticParamSpecs(int minK) {
  return {
      ParamSpec::integer("K", 128, minK, 65536, "contrastive set size: the positive plus K-1 negatives"),
      ParamSpec::real("lr", 5e-4, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::integer("hidden", 100, 1, 4096, "hidden ReLU units of each critic MLP"),
      ParamSpec::integer("embed", 100, 1, 4096, "output size of each critic MLP (the dot-product space)"),
      ParamSpec::choice("critic", {"learned", "oracle"}, "learned",
                        "learned: train the MLP critic; oracle: the task's analytic PMI, nothing trained"),
  };
}

CriticOptions CriticOptions::from(const ParamMap& params) {
  CriticOptions o;
  o.K = params.value("K").toInt();
  o.lr = params.value("lr").toDouble();
  o.hidden = params.value("hidden").toInt();
  o.embed = params.value("embed").toInt();
  o.oracle = usesOracleCritic(params);
  return o;
}

MethodInfo criticMethodInfo(const QString& id, const QString& displayName, const QString& family,
                            const QString& summary, int minK) {
  MethodInfo i;
  i.id = id;
  i.displayName = displayName;
  i.family = family;
  i.summary = summary;
  i.params = criticParamSpecs(minK);
  return i;
}

}  // namespace milab
