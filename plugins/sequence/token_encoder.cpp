#include "token_encoder.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "tasks/task.h"

namespace milab {

TokenEncoderImpl::TokenEncoderImpl(int64_t embedding, int64_t hidden, at::Generator& gen) {
  tokens = register_module("tokens", torch::nn::Embedding(TaskCapabilities::kLargestTokenId + 1, embedding));
  gru = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(embedding, hidden).batch_first(true)));
  c10::NoGradGuard noGrad;
  tokens->weight.normal_(0, 1, gen);
  const double bound = 1 / std::sqrt(double(hidden));
  for (at::Tensor& p : gru->parameters()) p.uniform_(-bound, bound, gen);
}

at::Tensor TokenEncoderImpl::forward(const at::Tensor& ids) {
  const auto [states, last] = gru->forward(tokens->forward(ids.round().to(at::kLong)));
  return last.select(0, 0);
}

torch::nn::Linear seededLinear(int64_t in, int64_t out, at::Generator& gen) {
  torch::nn::Linear layer(in, out);
  c10::NoGradGuard noGrad;
  const double bound = 1 / std::sqrt(double(in));
  layer->weight.uniform_(-bound, bound, gen);
  layer->bias.uniform_(-bound, bound, gen);
  return layer;
}

}  // namespace milab
