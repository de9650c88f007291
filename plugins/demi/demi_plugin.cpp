#include "demi/demi_plugin.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "method/critic_params.h"
#include "method/estimator.h"
#include "nn/bounds.h"
#include "nn/separable_critic.h"

namespace milab {

namespace {

class DemiEstimator final : public Estimator {
 public:
  explicit DemiEstimator(const EstimatorContext& ctx)
      : half_(ctx.params.value("K").toInt() / 2), task_(ctx.task), gen_(ctx.generator) {
    if (ctx.params.value("critic").toString() != "oracle")
      critic_ = std::make_unique<SeparableCritic>(2 * ctx.task->dim(), ctx.task->dim(), ctx.params, ctx.device, gen_);
  }

  // The unconditional term uses in-batch negatives, so the batch is its K/2 candidate set.
  int64_t batchSize() const override { return half_; }

  StepResult trainStep(const Batch& batch) override {
    if (!critic_) {  // the oracle has nothing to learn
      const Evaluation e = evaluate(batch);
      return {e.value, -e.value};
    }
    const Terms t = terms(batch);
    const at::Tensor bound = t.unconditional + t.conditional;
    critic_->minimise(-bound);
    return {bound.item<double>(), -bound.item<double>()};
  }

  Evaluation evaluate(const Batch& batch) override {
    c10::NoGradGuard noGrad;
    const Terms t = terms(batch);
    const double u = t.unconditional.item<double>(), c = t.conditional.item<double>();
    return {u + c, {{"I_NCE(x';y)", u}, {"I_CNCE(x;y|x')", c}}};
  }

 private:
  struct Terms {
    at::Tensor unconditional, conditional;
  };

  Terms terms(const Batch& batch) {
    // K/2 - 1 negatives per row from the true p(y | x'_i); the positive goes in column 0.
    const at::Tensor yNeg = task_->sampleYGivenXp(batch.xp, half_ - 1, gen_);
    at::Tensor unconditionalScores, conditionalScores;
    if (critic_) {
      const at::Tensor fXp = critic_->embedX(at::cat({batch.xp, at::zeros_like(batch.x)}, 1));  // f([x', 0])
      const at::Tensor fBoth = critic_->embedX(at::cat({batch.xp, batch.x}, 1));                // f([x', x])
      const at::Tensor gY = critic_->embedY(batch.y);
      unconditionalScores = fXp.matmul(gY.t());
      const at::Tensor positive = (fBoth * gY).sum(1, true);
      const at::Tensor negative = critic_->dotWithCandidates(fBoth, yNeg);  // f([x',x]) . g(y_k): DEMI's cost
      conditionalScores = at::cat({positive, negative}, 1);
    } else {
      // Optimal critics: log p(y|x')/p(y) for I_NCE(x';y), log p(y|x,x')/p(y|x') for I_CNCE(x;y|x').
      unconditionalScores = task_->subviewPmi(batch.xp.unsqueeze(1), batch.y.unsqueeze(0));
      const at::Tensor candidates = at::cat({batch.y.unsqueeze(1), yNeg}, 1);  // [B, K/2, d]
      const at::Tensor x = batch.x.unsqueeze(1), xp = batch.xp.unsqueeze(1);
      conditionalScores = task_->pmi(x, xp, candidates) - task_->subviewPmi(xp, candidates);
    }
    // I_NCE(x'; y): the other rows' y are the K/2 - 1 negatives from p(y).
    return {inBatchNce(unconditionalScores), firstColumnNce(conditionalScores)};
  }

  int64_t half_;
  const TaskSampler* task_;
  at::Generator gen_;
  std::unique_ptr<SeparableCritic> critic_;  // null for the oracle
};

}  // namespace

MethodInfo DemiPlugin::info() const {
  MethodInfo i =
      criticMethodInfo("demi", "DEMI (ground-truth p(y|x'))", "decomposed",
                       "I_NCE(x';y) + I_CNCE(x;y|x') with K/2 candidates per term; never above 2 log(K/2)", 4);
  i.needsSubview = true;
  return i;
}

QString DemiPlugin::validate(const ParamMap& params, const TaskInfo& task) const {
  Q_UNUSED(task);
  const int K = params.value("K").toInt();
  if (K % 2 != 0)
    return QStringLiteral("K: must be an even integer in [4, 65536] for demi (K/2 candidates per term), got %1").arg(K);
  return {};
}

QList<Ceiling> DemiPlugin::ceilings(const ParamMap& params) const {
  return {{"2 log(K/2)", 2.0 * std::log(params.value("K").toDouble() / 2.0)}};
}

std::unique_ptr<Estimator> DemiPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<DemiEstimator>(context);
}

}  // namespace milab
