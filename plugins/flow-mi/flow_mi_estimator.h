#pragma once
// MI through normalizing flows (Butakov et al., "Mutual information estimation via normalizing flows", NeurIPS
// 2024), in its diagonal form: flows f on x and g on y are trained, with a correlation rho_i per latent pair, to
// maximise the likelihood of (x, y) under
//   (f(x)_i, g(y)_i) ~ N(0, [[1, rho_i], [rho_i, 1]]) independently for i < min(dim x, dim y), the rest N(0, 1),
// through the change of variables (the flows' log-determinants). MI is invariant under the flows' bijections, so it
// is read as the MI of that Gaussian, -1/2 sum_i log(1 - rho_i^2), with rho_i the latents' correlation on each
// evaluation batch (the learned rho_i is reported beside it). Neither a lower nor an upper bound.
#include <memory>

#include "flow_mi_options.h"
#include "method/estimator.h"
#include "method/method_plugin.h"

namespace milab {

// -1/2 sum log(1 - rho^2), rho clamped inside (-1, 1) by 1e-6.
at::Tensor gaussianMiOfCorrelations(const at::Tensor& rho);
// Per coordinate, the sample correlation of two [B, m] tensors' columns: [m].
at::Tensor columnCorrelations(const at::Tensor& a, const at::Tensor& b);

class FlowMiEstimator final : public Estimator {
 public:
  explicit FlowMiEstimator(const EstimatorContext& ctx);
  ~FlowMiEstimator() override;

  int64_t batchSize() const override { return options_.batch; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

 private:
  struct Model;
  struct Latents {
    at::Tensor xi, eta, logDet;  // [B, dx], [B, dy], [B]
  };
  Latents latents(const Batch& batch);
  at::Tensor negativeLogLikelihood(const Latents& l) const;
  at::Tensor reading(const Latents& l) const;  // the Gaussian's MI with the batch's latent correlations

  FlowMiOptions options_;
  at::Generator gen_;
  int64_t paired_;  // min(dim x, dim y): the latent pairs that carry the dependence
  std::unique_ptr<Model> model_;
};

class FlowMiPlugin : public MethodPlugin {
 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
