#include "ammi/ammi_plugin.h"

#include <cmath>

#include "method/markov_mi_estimator.h"

namespace milab {

MethodInfo AmmiPlugin::info() const {
  MethodInfo i;
  i.id = "ammi";
  i.displayName = "AMMI (adversarial prior)";
  i.family = "discrete";
  i.summary = "H+(Z) - H+(Z|X) for Markov-order binary codes of y; H+(Z) against a learned order-r prior";
  i.params = markovMiParamSpecs(true);
  i.lowerBound = false;
  return i;
}

QString AmmiPlugin::validate(const ParamMap& params, const TaskInfo&) const {
  return validateMarkovMi("ammi", params, true);
}

QList<Ceiling> AmmiPlugin::ceilings(const ParamMap& params) const {
  // I(X;Z) <= H(Z) <= m log 2 for any code of m bits.
  return {{"m log 2", params.value("bits").toDouble() * std::log(2.0)}};
}

std::unique_ptr<Estimator> AmmiPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<MarkovMiEstimator>(context, true);
}

}  // namespace milab
