#include "bmmi/bmmi_plugin.h"

#include <cmath>

#include "method/markov_mi_estimator.h"

namespace milab {

MethodInfo BmmiPlugin::info() const {
  MethodInfo i;
  i.id = "bmmi";
  i.displayName = "BMMI (brute-force entropy)";
  i.family = "discrete";
  i.summary = "H(Z) - H+(Z|X) with H(Z) exact over the 2^m codes of the batch (m <= 16)";
  i.params = markovMiParamSpecs(false);
  i.lowerBound = true;
  return i;
}

QString BmmiPlugin::validate(const ParamMap& params, const TaskInfo&) const {
  return validateMarkovMi("bmmi", params, false);
}

QList<Ceiling> BmmiPlugin::ceilings(const ParamMap& params) const {
  // I(X;Z) <= H(Z) <= m log 2 for any code of m bits.
  return {{"m log 2", params.value("bits").toDouble() * std::log(2.0)}};
}

std::unique_ptr<Estimator> BmmiPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<MarkovMiEstimator>(context, false);
}

}  // namespace milab
