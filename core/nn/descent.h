#pragma once
// One optimiser step on a loss, the triple every trained model repeats: zero the gradients, backpropagate, step;
// optionally clipping each parameter group's gradient norm first (AMMI clips its encoder and predictor apart).
#include <vector>

#include "nn/flat_adam.h"

namespace milab {

void descend(FlatAdam& adam, const at::Tensor& loss);
// Each group's gradient norm is clipped to `maxNorm` on its own before the step.
void descendClipped(FlatAdam& adam, const at::Tensor& loss, const std::vector<std::vector<at::Tensor>>& clipGroups,
                    double maxNorm);

}  // namespace milab
