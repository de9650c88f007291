#include "method/decomposed_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "method/critic_pair.h"
#include "method/critic_params.h"
#include "nn/bounds.h"
#include "nn/separable_critic.h"

namespace milab {

namespace {
bool isMarginal(const ParamMap& params) { return params.value("protocol").toString() == "marginal"; }
}  // namespace

MethodInfo decomposedMethodInfo(const QString& id, const QString& displayName, const QString& summary) {
  MethodInfo i = criticMethodInfo(id, displayName, "decomposed", summary, 4);
  i.params << ParamSpec::choice("protocol", {"conditional", "marginal"}, "conditional",
                                "evaluation (DEMI Fig. 2): conditional = I_NCE + I_CNCE with true p(y|x') "
                                "negatives, K/2 each; marginal = I_NCE + I_IS over one shared set of K");
  i.needsSubview = true;
  return i;
}

QString validateDecomposed(const QString& id, const ParamMap& params) {
  const int K = params.value("K").toInt();
  if (!isMarginal(params) && K % 2 != 0)
    return QStringLiteral("K: must be an even integer in [4, 65536] for %1 under the conditional protocol "
                          "(K/2 candidates per term), got %2")
        .arg(id)
        .arg(K);
  return {};
}

QList<Ceiling> decomposedCeilings(const ParamMap& params) {
  const double K = params.value("K").toDouble();
  if (isMarginal(params)) return {{"2 log K", 2.0 * std::log(K)}};
  return {{"2 log(K/2)", 2.0 * std::log(K / 2.0)}};
}

DecomposedEstimator::DecomposedEstimator(const EstimatorContext& ctx)
    : ctx_(ctx),
      marginalProtocol_(isMarginal(ctx.params)),
      perTerm_(marginalProtocol_ ? ctx.params.value("K").toInt() : ctx.params.value("K").toInt() / 2) {
  if (ctx.params.value("critic").toString() != "oracle")
    critic_ = std::make_unique<SeparableCritic>(2 * ctx.task->dim(), ctx.task->dim(), ctx.params, ctx.device,
                                                ctx_.generator);
}

DecomposedEstimator::~DecomposedEstimator() = default;

at::Tensor DecomposedEstimator::groundTruthCnce(const Batch& batch, CriticPair& critics) {
  const at::Tensor negatives = ctx_.task->sampleYGivenXp(batch.xp, perTerm_ - 1, ctx_.generator);
  return firstColumnNce(at::cat({critics.phiPositive(), critics.phiOnCandidates(negatives)}, 1));
}

StepResult DecomposedEstimator::trainStep(const Batch& batch) {
  if (!critic_) {  // the oracle has nothing to learn: each step is one more evaluation
    const double v = evaluate(batch).value;
    return {v, -v};
  }
  CriticPair critics(critic_.get(), ctx_.task, batch);
  const at::Tensor unconditional = inBatchNce(critics.psi());
  const ConditionalTerm conditional = conditionalObjective(batch, critics);
  const at::Tensor objective = unconditional + conditional.objective;
  const double estimate = unconditional.item<double>() + conditional.estimate;
  critic_->minimise(-objective);
  return {estimate, -objective.item<double>()};
}

Evaluation DecomposedEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  CriticPair critics(critic_.get(), ctx_.task, batch);
  const at::Tensor psi = critics.psi();
  const double unconditional = inBatchNce(psi).item<double>();
  double conditional = 0;
  QString conditionalName;
  if (marginalProtocol_) {
    conditional = importanceSampledNce(positiveFirst(critics.phi()), positiveFirst(psi)).item<double>();
    conditionalName = "I_IS(x;y|x')";
  } else {
    conditional = groundTruthCnce(batch, critics).item<double>();
    conditionalName = "I_CNCE(x;y|x')";
  }
  Evaluation e{unconditional + conditional, {{"I_NCE(x';y)", unconditional}, {conditionalName, conditional}}};
  e.terms << ownTerms(batch, critics);
  return e;
}

}  // namespace milab
