// scoresBackwardByAutograd (nn/scores_objective.h).
#include "nn/scores_objective.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

namespace milab {

ScoresBackward scoresBackwardByAutograd(const std::function<at::Tensor(const at::Tensor&)>& objective,
                                        const at::Tensor& scores) {
  c10::AutoGradMode graph(true);
  const at::Tensor leaf = scores.detach().requires_grad_(true);
  const at::Tensor value = objective(leaf);
  value.neg().backward();
  return {value.detach(), leaf.grad()};
}

}  // namespace milab
