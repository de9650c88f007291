// The diffusion estimators' denoiser network and their losses (denoiser.h).
#include "denoiser.h"

#include <ATen/ATen.h>

#include "nn/mlp.h"

namespace milab {

DenoiserImpl::DenoiserImpl(int64_t dimX, int64_t dimY, int64_t hidden, int64_t layers, at::Generator& gen)
    : hiddenLayers(registerHiddenLayers(*this, dimX + dimY + 2, hidden, layers, gen)) {
  output = register_module("output", torch::nn::Linear(layers > 0 ? hidden : dimX + dimY + 2, dimX));
  initLinear(output, gen);
}

at::Tensor DenoiserImpl::forward(const at::Tensor& z, const at::Tensor& level, const at::Tensor& y,
                                 const at::Tensor& keep) {
  const at::Tensor keepColumn = keep.unsqueeze(1);
  return output(throughSiluLayers(hiddenLayers, at::cat({z, y * keepColumn, keepColumn, level.unsqueeze(1)}, 1)));
}

at::Tensor keptRows(int64_t n, double dropout, at::Generator& gen, const at::TensorOptions& options) {
  return at::empty({n}, options).uniform_(0, 1, gen).ge(dropout).to(options.dtype());
}

}  // namespace milab
