#pragma once
// Factorised densities of y for the estimators that read MI as a difference of entropies (DoE) or bound it
// from above (CLUB): a Gaussian or logistic law per dimension, with a mean and a log scale that are either free
// parameters (q(y)) or the output of a one-hidden-layer MLP of x (q(y|x)). Both are trained by maximum
// likelihood. Torch header: include it only from torch translation units.
#include <ATen/core/Generator.h>
#include <torch/nn/module.h>

#include <QString>
#include <utility>

#include "nn/mlp.h"

namespace milab {

enum class DensityFamily { Gaussian, Logistic };
// "gaussian" or "logistic" (the DoE plugins' `family` choices).
DensityFamily densityFamilyOf(const QString& name);

// log q(y) summed over the last axis, for a law with this mean and log scale per dimension (Gaussian: the
// scale is the standard deviation; logistic: s in (1 + e^-z)^-2 e^-z / s with z = (y - mean) / s).
// mean and logScale broadcast against y.
at::Tensor logDensity(DensityFamily family, const at::Tensor& y, const at::Tensor& mean, const at::Tensor& logScale);

// The mean over all (i, j) of log N(y_j; mean_i, exp(logScale_i)^2) for rows [B, d], in O(B d) instead of the
// [B, B, d] of the broadcast: the square expands into the columns' first and second moments of y.
at::Tensor gaussianMeanLogDensityOverPairs(const at::Tensor& y, const at::Tensor& mean, const at::Tensor& logScale);

// How q(y|x)'s MLP is built: its hidden activation, and the range of a uniform init of its weights (0: PyTorch's
// default, U(+-1/sqrt(fan_in)) for weights and biases). DoE's paper (McAllester & Stratos 2020, karlstratos/doe)
// uses tanh and U(+-0.05) weights; CLUB keeps ReLU and the default.
struct ConditionalDensityShape {
  bool tanh = false;
  double initRange = 0;
};

// q(y | x): each row's mean and log scale from an MLP of x.
struct ConditionalDensityImpl : torch::nn::Module {
  ConditionalDensityImpl(int64_t xDim, int64_t yDim, int64_t hidden, at::Generator& gen,
                         ConditionalDensityShape shape = {});
  std::pair<at::Tensor, at::Tensor> forward(const at::Tensor& x);  // mean, logScale: [B, yDim] each
  Mlp net{nullptr};
  bool tanh = false;
};
TORCH_MODULE(ConditionalDensity);

// q(y): one mean and log scale per dimension, starting at the standard law (0, 0).
struct MarginalDensityImpl : torch::nn::Module {
  explicit MarginalDensityImpl(int64_t yDim);
  at::Tensor mean, logScale;  // [yDim]
};
TORCH_MODULE(MarginalDensity);

}  // namespace milab
