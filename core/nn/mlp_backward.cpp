#include "nn/mlp_backward.h"

#include <ATen/ATen.h>

namespace milab {

at::Tensor linearForward(const torch::nn::Linear& layer, const at::Tensor& input) {
  return at::addmm(layer->bias, input, layer->weight.t());
}

void linearGradients(const torch::nn::Linear& layer, const at::Tensor& input, const at::Tensor& gradOutput,
                     GradientWrite write) {
  at::Tensor weightGrad = layer->weight.mutable_grad(), biasGrad = layer->bias.mutable_grad();
  if (write == GradientWrite::overwrite) {
    at::mm_out(weightGrad, gradOutput.t(), input);
    at::sum_out(biasGrad, gradOutput, {0});
  } else {
    weightGrad.addmm_(gradOutput.t(), input);
    biasGrad.add_(gradOutput.sum(0));
  }
}

MlpPass mlpForward(Mlp& mlp, const at::Tensor& input) {
  MlpPass pass{input, linearForward(mlp->input, input).relu_(), {}};
  pass.output = linearForward(mlp->output, pass.hidden);
  return pass;
}

void mlpBackward(Mlp& mlp, const MlpPass& pass, const at::Tensor& gradOutput, GradientWrite write) {
  linearGradients(mlp->output, pass.hidden, gradOutput, write);
  // AddmmBackward's input term (mat1 row-major: grad . mat2^T = grad . weight), then relu_'s threshold_backward,
  // which reads relu's result.
  const at::Tensor gradHidden = at::threshold_backward(gradOutput.mm(mlp->output->weight), pass.hidden, 0);
  linearGradients(mlp->input, pass.input, gradHidden, write);
}

}  // namespace milab
