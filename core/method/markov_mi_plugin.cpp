#include "method/markov_mi_plugin.h"

#include <cmath>

#include "method/markov_mi_estimator.h"

namespace milab {

MarkovMiPlugin::MarkovMiPlugin(bool learnedPrior, QString id, QString displayName, QString summary)
    : learnedPrior_(learnedPrior), id_(std::move(id)), displayName_(std::move(displayName)), summary_(std::move(summary)) {}

MethodInfo MarkovMiPlugin::info() const {
  MethodInfo i;
  i.id = id_;
  i.displayName = displayName_;
  i.family = "discrete";
  i.summary = summary_;
  i.params = markovMiParamSpecs(learnedPrior_);
  i.lowerBound = !learnedPrior_;  // AMMI's H+(Z) - H+(Z|X) is neither an upper nor a lower bound
  return i;
}

QString MarkovMiPlugin::validate(const ParamMap& params, const TaskInfo&) const {
  return validateMarkovMi(id_, params, learnedPrior_);
}

QList<Ceiling> MarkovMiPlugin::ceilings(const ParamMap& params) const {
  // I(X;Z) <= H(Z) <= m log 2 for any code of m bits.
  return {{"m log 2", params.value("bits").toDouble() * std::log(2.0)}};
}

std::unique_ptr<Estimator> MarkovMiPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<MarkovMiEstimator>(context, learnedPrior_);
}

}  // namespace milab
