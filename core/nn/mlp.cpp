#include "nn/mlp.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <string>

namespace milab {

MlpImpl::MlpImpl(int64_t in, int64_t hidden, int64_t out, at::Generator& gen) {
  input = register_module("input", torch::nn::Linear(in, hidden));
  output = register_module("output", torch::nn::Linear(hidden, out));
  initLinear(input, gen);
  initLinear(output, gen);
}

// relu_ in place: the first layer's output is needed by nothing else (its backward reads the input and weights),
// so the activation reuses its buffer instead of allocating another per forward.
at::Tensor MlpImpl::forward(const at::Tensor& x) { return output(input(x).relu_()); }

at::Tensor MlpImpl::dotWithRows(const at::Tensor& rows, const at::Tensor& candidates) {
  const at::Tensor hidden = at::relu(input(candidates));            // [B, C, H]
  const at::Tensor folded = rows.matmul(output->weight);            // [B, H]
  const at::Tensor offset = (rows * output->bias).sum(1, true);     // [B, 1]
  return at::bmm(hidden, folded.unsqueeze(2)).squeeze(2) + offset;  // [B, C]
}

void initLinear(torch::nn::Linear& layer, at::Generator& gen) {
  c10::NoGradGuard noGrad;
  const double bound = 1.0 / std::sqrt(static_cast<double>(layer->weight.size(1)));
  layer->weight.uniform_(-bound, bound, gen);
  layer->bias.uniform_(-bound, bound, gen);
}

std::vector<torch::nn::Linear> registerHiddenLayers(torch::nn::Module& owner, int64_t in, int64_t hidden,
                                                    int64_t layers, at::Generator& gen) {
  std::vector<torch::nn::Linear> stack;
  for (int64_t i = 0; i < layers; ++i) {
    stack.push_back(owner.register_module("hidden" + std::to_string(i), torch::nn::Linear(in, hidden)));
    initLinear(stack.back(), gen);
    in = hidden;
  }
  return stack;
}

at::Tensor throughSiluLayers(std::vector<torch::nn::Linear>& layers, at::Tensor h) {
  for (torch::nn::Linear& layer : layers) h = at::silu(layer(h));
  return h;
}

}  // namespace milab
