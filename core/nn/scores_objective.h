#pragma once
// What a bound makes of one step's score matrix, for the critics whose backward is written out (nn/separable_step,
// nn/joint_step): its objective (reported; no gradient) and the gradient of -objective at the scores, which the
// written-out backward carries into the networks. Torch header.
#include <ATen/core/Tensor.h>

#include <functional>

namespace milab {

struct ScoresBackward {
  at::Tensor objective, gradScores;
};
using ScoresObjective = std::function<ScoresBackward(const at::Tensor& scores)>;

// The gradient of -objective(scores) at the scores by autograd, over the bound's few [K, K] operations only.
ScoresBackward scoresBackwardByAutograd(const std::function<at::Tensor(const at::Tensor&)>& objective,
                                        const at::Tensor& scores);

}  // namespace milab
