#pragma once
// An Mlp's forward and backward without autograd, for the training steps whose backward is written out
// (separable_step.cpp on a GPU or in double, plugins/demi/demi_step.cpp). The calls are those autograd's derivative
// formulas make in this LibTorch (1.13: addmm/mm backward, threshold_backward for relu_, sum_to for a broadcast bias),
// so a step built from them can be autograd's to the bit. Gradients go straight into the parameters' .grad() (views of
// FlatAdam's buffer). Torch header: include it only from torch translation units.
#include <ATen/core/Tensor.h>

#include "nn/mlp.h"

namespace milab {

// One Linear layer's forward as torch::nn::Linear computes it for a 2-D input: addmm(bias, input, weight^T).
at::Tensor linearForward(const torch::nn::Linear& layer, const at::Tensor& input);

// How a layer's parameter gradients meet what is already in .grad(): overwritten (no zero_grad needed), or added
// (a layer that several paths of one step go through).
enum class GradientWrite { overwrite, accumulate };

// A layer's parameter gradients from the gradient of its output. AddmmBackward's weight term: grad^T . input (its
// mat2 is weight^T, column-major, so autograd forms (grad^T input)^T and transposes back); the bias term is
// sum_to's sum over rows.
void linearGradients(const torch::nn::Linear& layer, const at::Tensor& input, const at::Tensor& gradOutput,
                     GradientWrite write = GradientWrite::overwrite);

// The MLP's forward, keeping what its backward reads: the input and the hidden activation (relu_ in place, as
// MlpImpl::forward does).
struct MlpPass {
  at::Tensor input, hidden, output;
};
MlpPass mlpForward(Mlp& mlp, const at::Tensor& input);
void mlpBackward(Mlp& mlp, const MlpPass& pass, const at::Tensor& gradOutput,
                 GradientWrite write = GradientWrite::overwrite);

}  // namespace milab
