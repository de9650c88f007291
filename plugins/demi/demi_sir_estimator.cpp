// DEMI-SIR's estimator: phi trained by I_SIR, negatives resampled from a marginal pool (demi_sir_plugin.h).
#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "demi/critic_pair.h"
#include "demi/decomposed_estimator.h"
#include "demi/variant_estimators.h"
#include "nn/bounds.h"

namespace milab {

namespace {

class DemiSirEstimator final : public DecomposedEstimator {
 public:
  explicit DemiSirEstimator(const EstimatorContext& ctx) : DecomposedEstimator(ctx), pool_(options().sirPool) {}

 protected:
  ConditionalTerm conditionalObjective(const Batch& batch, CriticPair& critics) override {
    const at::Tensor sir = resampledCnce(batch, critics);
    return {sir, sir};
  }
  QList<Term> ownTerms(const Batch& batch, CriticPair& critics) override {
    return {{"I_SIR(x;y|x') [trains phi]", resampledCnce(batch, critics).item<double>()}};
  }

 private:
  // I_SIR (eq. 8): M samples of p(y) shared by the batch; each row resamples perTerm()-1 of them with
  // replacement, in proportion to exp psi(x'_i, y_m), which tends to p(y|x'_i) as M grows (Rubin 1987).
  at::Tensor resampledCnce(const Batch& batch, CriticPair& critics) {
    const at::Tensor pool = context().task->sampleMarginalY(pool_, noise());  // [M, d] from p(y)
    // phi first, with gradients: psi then reuses the pool's embedding (CriticPair keeps it).
    const at::Tensor phiPool = critics.phiAgainst(pool);
    at::Tensor picks;
    {
      c10::NoGradGuard noGrad;
      // Resampled where the scores are, with the device's generator: no copy to the host and back per step (on
      // the CPU, noise() is the run's generator, as it always was).
      const at::Tensor weights = at::softmax(critics.psiAgainst(pool).to(at::kDouble), 1);
      picks = at::multinomial(weights, perTerm() - 1, true, noise());  // [B, K/2-1]
    }
    const at::Tensor negatives = phiPool.gather(1, picks);
    return firstColumnNce(at::cat({critics.phiPositive(), negatives}, 1));
  }

  int64_t pool_;
};

}  // namespace

std::unique_ptr<Estimator> makeDemiSirEstimator(const EstimatorContext& context) {
  return std::make_unique<DemiSirEstimator>(context);
}

}  // namespace milab
