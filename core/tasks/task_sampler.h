#pragma once
// Torch-side sampling of a GaussianModel: joint batches and the true conditional p(y | x').
// Noise is drawn on the CPU from the run's own generator (reproducible whatever the device) and moved once.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "tasks/gaussian_model.h"

namespace milab {

// A diagonal Gaussian law per row: mean and log-variance, [B, d].
struct DiagonalGaussian {
  at::Tensor mean, logVar;
};

// KL(p || q) between diagonal Gaussians, summed over the last axis.
at::Tensor klDivergence(const DiagonalGaussian& p, const DiagonalGaussian& q);

struct Batch {
  at::Tensor x;   // [B, d]
  at::Tensor xp;  // [B, d] x' (undefined when the task has no subview)
  at::Tensor y;   // [B, d]
};

class TaskSampler {
 public:
  TaskSampler(const GaussianModel& model, c10::Device device);

  int dim() const { return dim_; }
  bool hasSubview() const { return subview_; }
  c10::Device device() const { return device_; }

  Batch sampleJoint(int64_t n, at::Generator& gen) const;
  // perRow samples of y ~ p(y | x'_b) for every row b of xp: [B, perRow, d]. Needs a subview.
  at::Tensor sampleYGivenXp(const at::Tensor& xp, int64_t perRow, at::Generator& gen) const;

  // The true p(y | x') in float64: N(a x', 1 - a^2) per dimension. Needs a subview.
  DiagonalGaussian yGivenXp(const at::Tensor& xp) const;

  // Analytic critics, in float64, broadcasting over all but the last (dimension) axis, summed over it:
  // pmi = log p(y | x, x') - log p(y) (gaussian2: log p(y | x) - log p(y)), the optimal InfoNCE critic;
  // subviewPmi = log p(y | x') - log p(y). E.g. x [B,1,d], y [1,C,d] gives the [B,C] score matrix.
  // `xp` is ignored (may be undefined) for gaussian2; for the cubic task y is given as observed (y^3).
  at::Tensor pmi(const at::Tensor& x, const at::Tensor& xp, const at::Tensor& y) const;
  at::Tensor subviewPmi(const at::Tensor& xp, const at::Tensor& y) const;
  // log p(y) of y as observed, in float64, summed over the last axis: y ~ N(0, I) (unit variance per dimension
  // by construction); on the cubic task the density of y^3, i.e. with the Jacobian -log(3 u^2) of u = cbrt(y).
  // With pmi it gives every exact density the DoE and CLUB oracles need: log p(y | x) = log p(y) + pmi.
  at::Tensor logMarginalY(const at::Tensor& y) const;

 private:
  at::Tensor noise(at::IntArrayRef shape, at::Generator& gen) const;

  int dim_;
  bool subview_, cubic_;
  c10::Device device_;
  // Per-dimension coefficients, float32 on the device (see GaussianModel for the structural equations).
  at::Tensor b_, bNoise_, bp_, bx_, sigma_, a_, condSd_;
  // The same in float64 for the analytic critics (sigma^2 reaches e^-20 at 10 nats per dimension).
  at::Tensor bp64_, bx64_, logSigma2_, a64_, logCondVar_;
};

}  // namespace milab
