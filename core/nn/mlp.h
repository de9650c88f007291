#pragma once
// A one-hidden-layer ReLU MLP initialised from the run's own generator (torch's global generator would make
// concurrent runs irreproducible).
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <ATen/core/Generator.h>

#include <vector>

namespace milab {

struct MlpImpl : torch::nn::Module {
  MlpImpl(int64_t in, int64_t hidden, int64_t out, at::Generator& gen);
  at::Tensor forward(const at::Tensor& x);
  // rows[b] . forward(candidates[b][c]) for rows [B, E] and candidates [B, C, in] -> [B, C], without running the
  // output layer on the B*C candidates: r . (W2 h + b2) = (r W2) . h + r . b2. Same values and gradients as
  // the direct form, but the H x E output layer is applied B times instead of B*C times (DEMI's conditional
  // negatives: ~5x fewer FLOPs at the paper's sizes).
  at::Tensor dotWithRows(const at::Tensor& rows, const at::Tensor& candidates);
  torch::nn::Linear input{nullptr}, output{nullptr};
};
TORCH_MODULE(Mlp);

// PyTorch's default Linear init (U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weight and bias), from `gen`.
void initLinear(torch::nn::Linear& layer, at::Generator& gen);

// A stack of `layers` Linear layers of `hidden` units over `in` inputs, registered on `owner` as hidden0, hidden1, ...
// and initialised from `gen` in that order (initLinear): the hidden layers of the diffusion estimators' denoiser and
// of InfoBridge's drift, each of which adds its own output layer.
std::vector<torch::nn::Linear> registerHiddenLayers(torch::nn::Module& owner, int64_t in, int64_t hidden,
                                                    int64_t layers, at::Generator& gen);
// h through each of `layers` with SiLU after each.
at::Tensor throughSiluLayers(std::vector<torch::nn::Linear>& layers, at::Tensor h);

}  // namespace milab
