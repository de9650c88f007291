#include "ammi/markov_mi_plugin.h"

#include <cmath>

#include "ammi/markov_mi_estimator.h"

namespace milab {

namespace {
constexpr double kFooledPriorGap = 0.5;  // nats of H+(Z) above the exact H(Z) that say the prior is fooled
}

MarkovMiPlugin::MarkovMiPlugin(bool learnedPrior, QString id, QString displayName, QString summary)
    : learnedPrior_(learnedPrior),
      id_(std::move(id)),
      displayName_(std::move(displayName)),
      summary_(std::move(summary)) {}

MethodInfo MarkovMiPlugin::info() const {
  MethodInfo i;
  i.id = id_;
  i.displayName = displayName_;
  i.family = "discrete";
  i.summary = summary_;
  i.params = markovMiParamSpecs(learnedPrior_);
  i.lowerBound = !learnedPrior_;  // AMMI's H+(Z) - H+(Z|X) is neither an upper nor a lower bound
  i.markovEncoder = true;
  return i;
}

QString MarkovMiPlugin::validate(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  return validateMarkovMi(id_, MarkovMiOptions::from(params, learnedPrior_));
}

MemoryNeed MarkovMiPlugin::memoryNeed(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  return markovMiMemoryNeed(MarkovMiOptions::from(params, learnedPrior_));
}

QList<Ceiling> MarkovMiPlugin::ceilings(const ParamMap& params) const {
  // I(X;Z) <= H(Z) <= m log 2 for any code of m bits.
  return {{"m log 2", MarkovMiOptions::from(params, learnedPrior_).bits * std::log(2.0)}};
}

ReadingLimits MarkovMiPlugin::readingLimits(const ParamMap& params, const TaskModel& task) const {
  // AMMI is no bound, so the default leaves out the ceiling; yet no reading of I(X;Z) for a code of m bits can
  // exceed m log 2 (an AMMI above it has a prior that reads H(Z) too high: its warning says so).
  ReadingLimits l = MethodPlugin::readingLimits(params, task);
  for (const Ceiling& c : ceilings(params))
    if (c.value < l.high) {
      l.high = c.value;
      l.highWhy =
          QStringLiteral("above %1 = %2: no code of that many bits carries more").arg(c.name).arg(c.value, 0, 'f', 3);
    }
  return l;
}

QString MarkovMiPlugin::warning(const ParamMap& params, const QList<Term>& terms) const {
  if (!learnedPrior_) return {};
  double crossEntropy = NAN, conditional = NAN, exact = NAN;
  for (const Term& t : terms) {
    if (t.name == "H+(Z)") crossEntropy = t.value;
    if (t.name == "H+(Z|X)") conditional = t.value;
    if (t.name == "H(Z) exact over the pool") exact = t.value;
  }
  if (std::isnan(exact)) return {};  // too many bits to enumerate: nothing to compare the prior with
  const int r = MarkovMiOptions::from(params, learnedPrior_).priorOrder;
  // A true lower bound on I(X;Z) below zero: the code shares nothing with X that the reading can claim.
  if (exact - conditional < 0)
    return QStringLiteral(
               "the order-%1 prior is fooled by its encoder: the codes' exact H(Z) %2 minus H+(Z|X) %3 is "
               "below zero, so the estimate is not to be trusted; raise order_prior")
        .arg(r)
        .arg(exact, 0, 'f', 3)
        .arg(conditional, 0, 'f', 3);
  // The prior reads the codes as more random than they are, by most at a low order (docs/methods.md, "The discrete
  // methods: AMMI and BMMI", the prior-order table).
  if (crossEntropy - exact > kFooledPriorGap)
    return QStringLiteral(
               "the order-%1 prior reads H+(Z) = %2 nats, %3 above the codes' exact entropy %4: the "
               "estimate is inflated; raise order_prior")
        .arg(r)
        .arg(crossEntropy, 0, 'f', 3)
        .arg(crossEntropy - exact, 0, 'f', 3)
        .arg(exact, 0, 'f', 3);
  return {};
}

std::unique_ptr<Estimator> MarkovMiPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<MarkovMiEstimator>(context, learnedPrior_);
}

}  // namespace milab
