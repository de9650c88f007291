#pragma once
// The vision methods' networks: a small CNN encoder f (three 3x3 conv blocks with batch norm and ReLU, max pooling
// between them, global average pooling: its output is the representation a linear probe reads) and MLP projection
// heads, all initialised from the run's generator (PyTorch's default ranges).
#include <ATen/core/Generator.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/pimpl.h>

namespace milab {

struct ConvEncoderImpl : torch::nn::Module {
  // `channels` for the first block, 2x and 4x for the next two: the representation has 4 * channels features.
  ConvEncoderImpl(int64_t channels, at::Generator& gen);
  // images [B, 1, S, S] -> representation [B, 4 * channels]
  at::Tensor forward(const at::Tensor& images);
  int64_t outputs() const { return outputs_; }

  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr}, conv3{nullptr};
  torch::nn::BatchNorm2d norm1{nullptr}, norm2{nullptr}, norm3{nullptr};

 private:
  int64_t outputs_;
};
TORCH_MODULE(ConvEncoder);

}  // namespace milab
