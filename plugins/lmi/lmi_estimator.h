#pragma once
// LMI, latent mutual information (Gowri, Lun, Klein and Yin, NeurIPS 2024; ggdna/latentmi): cross-predictive
// autoencoders (cross_autoencoders.h) embed x and y into small latents, and KSG (knn/ksg.h, k 3 as the reference's)
// reads the MI of the latents on held-out rows. The latents are functions of x and of y, so their MI is at most
// I(x; y) (data processing): LMI reads a lower bound when KSG reads the latents right. KSG's own error makes the
// reading neither bound (lowerBound false), which is why early stopping and report = best select by the
// autoencoders' held-out loss, as the reference restores its lowest-validation-loss weights. Columns are clipped to
// [-10, 10] before the networks, as the reference clips its standardised columns. The training curve's per-step
// readings are the Gaussian MI of each batch's latents (gaussianMiOfLatents), a stand-in computed on the run's device;
// every held-out reading, and the run's result, is KSG's.
#include <memory>
#include <random>

#include "cross_autoencoders.h"
#include "knn/ksg.h"
#include "lmi_options.h"
#include "method/estimator.h"
#include "method/method_plugin.h"
#include "nn/flat_adam.h"

namespace milab {

// The MI of Gaussians with the latents' correlations: 1/2 (log det C_x + log det C_y - log det C_xy), [1 element].
at::Tensor gaussianMiOfLatents(const at::Tensor& zx, const at::Tensor& zy);

class LmiEstimator final : public Estimator {
 public:
  explicit LmiEstimator(const EstimatorContext& ctx);
  ~LmiEstimator() override;

  int64_t batchSize() const override { return options_.batch; }
  int64_t evaluationBatchSize() const override { return options_.readRows; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

  // The latents of a batch's rows, without gradients.
  CrossAutoencodersImpl::Latents latents(const Batch& batch);
  // LMI's reading of latents: KSG with the run's k, ties broken as the ksg method breaks them.
  double readLatents(const at::Tensor& zx, const at::Tensor& zy);

 private:
  CrossAutoencodersImpl::Weights weights() const;

  LmiOptions options_;
  at::Generator noise_;  // the run's device's (EstimatorContext::noise, the run's own on a CPU): dropout's masks
  CancelCheck cancelled_;
  std::mt19937_64 tieBreaker_;
  CrossAutoencoders model_{nullptr};
  std::unique_ptr<FlatAdam> adam_;
};

class LmiPlugin : public MethodPlugin {
 public:
  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
