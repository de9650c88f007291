#include "drift_net.h"

#include <ATen/ATen.h>

#include <string>

#include "nn/mlp.h"

namespace milab {

DriftNetImpl::DriftNetImpl(int64_t dimY, int64_t dimX, int64_t hidden, int64_t layers, at::Generator& gen) {
  int64_t in = dimY + dimX + 2;
  for (int64_t i = 0; i < layers; ++i) {
    hiddenLayers.push_back(register_module("hidden" + std::to_string(i), torch::nn::Linear(in, hidden)));
    initLinear(hiddenLayers.back(), gen);
    in = hidden;
  }
  output = register_module("output", torch::nn::Linear(in, dimY));
  initLinear(output, gen);
}

at::Tensor DriftNetImpl::forward(const at::Tensor& z, const at::Tensor& x, const at::Tensor& t, bool joint) {
  const at::Tensor label = at::full({z.size(0), 1}, joint ? 1.0 : -1.0, z.options());
  at::Tensor h = at::cat({z, x, label, t.unsqueeze(1)}, 1);
  for (torch::nn::Linear& layer : hiddenLayers) h = at::silu(layer(h));
  return output(h);
}

}  // namespace milab
