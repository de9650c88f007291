#pragma once
// The sequence family's encoder: each token id embedded, the sequence read by a one-layer GRU, its last state the
// sequence's representation (DEMI's dialogue critic reads the last states: section 5.3). LibTorch's own modules,
// initialised from the run's generator with PyTorch's default laws (embedding N(0, 1), GRU U(-1/sqrt(hidden), ..)).
#include <ATen/core/Generator.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>
#include <torch/nn/pimpl.h>

namespace milab {

struct TokenEncoderImpl : torch::nn::Module {
  TokenEncoderImpl(int64_t embedding, int64_t hidden, at::Generator& gen);
  // token ids as float columns [B, T] -> the GRU's last state [B, hidden]
  at::Tensor forward(const at::Tensor& ids);

  torch::nn::Embedding tokens{nullptr};
  torch::nn::GRU gru{nullptr};
};
TORCH_MODULE(TokenEncoder);

// A linear head initialised as PyTorch's nn.Linear is (U(-1/sqrt(in), 1/sqrt(in)) for weights and bias), drawn
// with `gen`.
torch::nn::Linear seededLinear(int64_t in, int64_t out, at::Generator& gen);

}  // namespace milab
