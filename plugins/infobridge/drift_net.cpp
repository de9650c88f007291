#include "drift_net.h"

#include <ATen/ATen.h>

#include "nn/mlp.h"

namespace milab {

DriftNetImpl::DriftNetImpl(int64_t dimY, int64_t dimX, int64_t hidden, int64_t layers, at::Generator& gen)
    : hiddenLayers(registerHiddenLayers(*this, dimY + dimX + 2, hidden, layers, gen)) {
  output = register_module("output", torch::nn::Linear(layers > 0 ? hidden : dimY + dimX + 2, dimY));
  initLinear(output, gen);
}

at::Tensor DriftNetImpl::forward(const at::Tensor& z, const at::Tensor& x, const at::Tensor& t, bool joint) {
  const at::Tensor label = at::full({z.size(0), 1}, joint ? 1.0 : -1.0, z.options());
  return output(throughSiluLayers(hiddenLayers, at::cat({z, x, label, t.unsqueeze(1)}, 1)));
}

}  // namespace milab
