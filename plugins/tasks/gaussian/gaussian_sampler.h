#pragma once
// Torch-side sampling of a GaussianModel: joint batches, the true conditional p(y | x'), and the exact PMI and
// densities (every TaskCapability). Noise is drawn with the caller's generator where it lives and placed once.
#include "gaussian_model.h"
#include "tasks/task_sampler.h"

namespace milab {

class GaussianSampler final : public TaskSampler {
 public:
  GaussianSampler(const GaussianModel& model, c10::Device device);

  int dimX() const override { return dim_; }
  int dimY() const override { return dim_; }
  bool hasSubview() const override { return subview_; }

  Batch sampleJoint(int64_t n, at::Generator& gen) const override;
  at::Tensor sampleMarginalY(int64_t n, at::Generator& gen) const override;
  // y | x' ~ N(a x', 1 - a^2) per dimension.
  at::Tensor sampleYGivenXp(const at::Tensor& xp, int64_t perRow, at::Generator& gen) const override;
  DiagonalGaussian yGivenXp(const at::Tensor& xp) const override;

  // On the cubic task y is given as observed (y^3): the Jacobians of p(y^3|x) and p(y^3) cancel in the PMI, and
  // log p(y) carries -log(3 u^2) of u = cbrt(y). y ~ N(0, I) otherwise (unit variance per dimension by construction).
  at::Tensor pmi(const at::Tensor& x, const at::Tensor& xp, const at::Tensor& y) const override;
  at::Tensor subviewPmi(const at::Tensor& xp, const at::Tensor& y) const override;
  at::Tensor logMarginalY(const at::Tensor& y) const override;
  GaussianXSide gaussianXSide() const override { return xSide_; }

 private:
  at::Tensor noise(at::IntArrayRef shape, at::Generator& gen) const;
  // sampleJoint's structural equations over CPU noise z [2 or 3, n, dim] (x' or x, e_x, e_y), in place.
  void formOnHost(float* z, int64_t n) const;

  int dim_;
  bool subview_, cubic_;
  // Per-dimension coefficients, float32 on the device (see GaussianModel for the structural equations).
  at::Tensor b_, bNoise_, bp_, bx_, sigma_, a_, condSd_;
  // The same in float64 for the analytic critics (sigma^2 reaches e^-20 at 10 nats per dimension).
  at::Tensor bp64_, bx64_, logSigma2_, a64_, logCondVar_;
  GaussianXSide xSide_;
};

}  // namespace milab
