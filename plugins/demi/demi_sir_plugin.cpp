#include "demi/demi_sir_plugin.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "demi/critic_pair.h"
#include "demi/decomposed_estimator.h"
#include "nn/bounds.h"

namespace milab {

namespace {

class DemiSirEstimator final : public DecomposedEstimator {
 public:
  explicit DemiSirEstimator(const EstimatorContext& ctx)
      : DecomposedEstimator(ctx), pool_(options().sirPool) {}

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

DemiSirPlugin::DemiSirPlugin()
    : DecomposedPlugin(
          "demi-sir", "DEMI-SIR (sampling importance resampling)",
          "I_NCE(x';y) + I_CNCE(x;y|x'), phi trained by I_SIR: negatives resampled from M marginal samples (eq. 8)") {}

MethodInfo DemiSirPlugin::info() const {
  MethodInfo i = DecomposedPlugin::info();
  i.params << sirPoolParamSpec();
  return i;
}

QString DemiSirPlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const QString err = DecomposedPlugin::validate(params, task, taskParams);
  if (!err.isEmpty()) return err;
  // Each row resamples its candidates' negatives from the pool: K/2 - 1 under the conditional protocol, K - 1
  // under the marginal one. A pool smaller than the candidates of one row would repeat draws within every row.
  const DecomposedOptions o = DecomposedOptions::from(params);
  const bool marginal = o.marginalProtocol;
  const int K = o.critic.K, M = o.sirPool, candidates = o.perTerm();
  if (M < candidates)
    return QStringLiteral(
               "M: must be at least %1 = %2 (the candidates per row under the %3 protocol) for "
               "demi-sir, got %4")
        .arg(marginal ? "K" : "K/2")
        .arg(candidates)
        .arg(marginal ? "marginal" : "conditional")
        .arg(M);
  return {};
}

std::unique_ptr<Estimator> DemiSirPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<DemiSirEstimator>(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_demi_sir_plugin.cpp"
