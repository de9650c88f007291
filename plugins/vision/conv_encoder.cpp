#include "conv_encoder.h"

#include <ATen/ATen.h>
#include <torch/nn/options/conv.h>

#include <cmath>

namespace milab {

namespace {

// PyTorch's default Conv2d init (kaiming_uniform with a = sqrt(5): U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weight
// and bias), from `gen` instead of the global generator.
torch::nn::Conv2d conv3x3(int64_t in, int64_t out, at::Generator& gen) {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(in, out, 3).padding(1));
  const double bound = 1.0 / std::sqrt(double(in * 9));
  torch::NoGradGuard noGrad;
  conv->weight.uniform_(-bound, bound, gen);
  conv->bias.uniform_(-bound, bound, gen);
  return conv;
}

}  // namespace

ConvEncoderImpl::ConvEncoderImpl(int64_t channels, at::Generator& gen) : outputs_(4 * channels) {
  conv1 = register_module("conv1", conv3x3(1, channels, gen));
  conv2 = register_module("conv2", conv3x3(channels, 2 * channels, gen));
  conv3 = register_module("conv3", conv3x3(2 * channels, 4 * channels, gen));
  norm1 = register_module("norm1", torch::nn::BatchNorm2d(channels));
  norm2 = register_module("norm2", torch::nn::BatchNorm2d(2 * channels));
  norm3 = register_module("norm3", torch::nn::BatchNorm2d(4 * channels));
}

at::Tensor ConvEncoderImpl::forward(const at::Tensor& images) {
  at::Tensor h = at::max_pool2d(at::relu(norm1(conv1(images))), {2, 2});  // 28 -> 14
  h = at::max_pool2d(at::relu(norm2(conv2(h))), {2, 2});                  // 14 -> 7
  h = at::relu(norm3(conv3(h)));
  return h.mean({2, 3});
}

}  // namespace milab
