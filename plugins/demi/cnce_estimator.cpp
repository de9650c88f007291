// I_CNCE(x;y|x') alone as an estimator (cnce_plugin.h).
#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "demi/critic_pair.h"
#include "demi/demi_step.h"
#include "demi/variant_estimators.h"
#include "method/critic_options.h"
#include "method/estimator.h"
#include "nn/separable_critic.h"

namespace milab {

namespace {

class CnceEstimator final : public Estimator {
 public:
  explicit CnceEstimator(const EstimatorContext& ctx) : CnceEstimator(ctx, CriticOptions::from(ctx.params)) {}
  CnceEstimator(const EstimatorContext& ctx, const CriticOptions& o) : ctx_(ctx), K_(o.K) {
    if (!o.oracle)
      critic_ = std::make_unique<SeparableCritic>(ctx.task->criticInputDim(), ctx.task->dimY(), o.hidden, o.embed, o.lr,
                                                  ctx.device, ctx_.generator);
  }

  // Negatives are drawn per row, so the batch size is free; K rows keeps the cost comparable to InfoNCE's.
  int64_t batchSize() const override { return K_; }

  // trainCnce (demi_step.h): the step of minimise(-cnce(batch)) with its backward written out, the same draws.
  StepResult trainStep(const Batch& batch) override {
    const at::Tensor bound = trainCnce(*critic_, batch.xp, batch.x, batch.y, negatives(batch));
    return {bound, -StepReading(bound)};
  }

  Evaluation evaluate(const Batch& batch) override {
    c10::NoGradGuard noGrad;
    const double v = cnce(batch).item<double>();
    return {v, {{"I_CNCE(x;y|x')", v}}};
  }

 private:
  // K - 1 per row from the true p(y|x'), drawn with the run's noise generator.
  at::Tensor negatives(const Batch& batch) { return ctx_.task->sampleYGivenXp(batch.xp, K_ - 1, ctx_.noise); }

  at::Tensor cnce(const Batch& batch) {
    CriticPair critics(critic_.get(), ctx_.task, batch);
    return critics.cnce(negatives(batch));
  }

  EstimatorContext ctx_;
  int64_t K_;
  std::unique_ptr<SeparableCritic> critic_;  // null for the oracle
};

}  // namespace

std::unique_ptr<Estimator> makeCnceEstimator(const EstimatorContext& context) {
  return std::make_unique<CnceEstimator>(context);
}

}  // namespace milab
