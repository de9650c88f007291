#pragma once
// InfoBridge's drift network: one network for both processes, told which by a label (+1 the bridges to y ~ p(y|x),
// -1 those to y ~ p(y)), as the reference's two drifts share one backbone with a class label. It reads
// [z_t, x, label, t] and returns the drift at z_t, of y's width. `layers` hidden SiLU layers of `hidden` units (the
// reference's residual MLP with a time embedding is replaced by the diffusion estimators' plain MLP).
#include <ATen/core/Generator.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <vector>

namespace milab {

struct DriftNetImpl : torch::nn::Module {
  DriftNetImpl(int64_t dimY, int64_t dimX, int64_t hidden, int64_t layers, at::Generator& gen);
  // The drift [n, dimY] at z [n, dimY] and times t [n] given x [n, dimX], of the joint process or the independent one.
  at::Tensor forward(const at::Tensor& z, const at::Tensor& x, const at::Tensor& t, bool joint);
  std::vector<torch::nn::Linear> hiddenLayers;
  torch::nn::Linear output{nullptr};
};
TORCH_MODULE(DriftNet);

}  // namespace milab
