// The diffusion estimators' denoiser network and their losses (denoiser.h).
#include "denoiser.h"

#include <ATen/ATen.h>

#include <string>

#include "nn/mlp.h"

namespace milab {

DenoiserImpl::DenoiserImpl(int64_t dimX, int64_t dimY, int64_t hidden, int64_t layers, at::Generator& gen) {
  int64_t in = dimX + dimY + 2;
  for (int64_t i = 0; i < layers; ++i) {
    hiddenLayers.push_back(register_module("hidden" + std::to_string(i), torch::nn::Linear(in, hidden)));
    initLinear(hiddenLayers.back(), gen);
    in = hidden;
  }
  output = register_module("output", torch::nn::Linear(in, dimX));
  initLinear(output, gen);
}

at::Tensor DenoiserImpl::forward(const at::Tensor& z, const at::Tensor& level, const at::Tensor& y,
                                 const at::Tensor& keep) {
  const at::Tensor keepColumn = keep.unsqueeze(1);
  at::Tensor h = at::cat({z, y * keepColumn, keepColumn, level.unsqueeze(1)}, 1);
  for (torch::nn::Linear& layer : hiddenLayers) h = at::silu(layer(h));
  return output(h);
}

at::Tensor keptRows(int64_t n, double dropout, at::Generator& gen, const at::TensorOptions& options) {
  return at::empty({n}, options).uniform_(0, 1, gen).ge(dropout).to(options.dtype());
}

}  // namespace milab
