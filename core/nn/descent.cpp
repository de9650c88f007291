#include "nn/descent.h"

// clip_grad.h uses torch::Tensor without including it: types.h first.
// clang-format off
#include <torch/types.h>
#include <torch/nn/utils/clip_grad.h>
// clang-format on

namespace milab {

void descend(FlatAdam& adam, const at::Tensor& loss) {
  adam.zero_grad();
  loss.backward();
  adam.step();
}

void descendClipped(FlatAdam& adam, const at::Tensor& loss, const std::vector<std::vector<at::Tensor>>& clipGroups,
                    double maxNorm) {
  adam.zero_grad();
  loss.backward();
  for (const std::vector<at::Tensor>& group : clipGroups) torch::nn::utils::clip_grad_norm_(group, maxNorm);
  adam.step();
}

}  // namespace milab
