#include "coupling_flow.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "nn/mlp.h"

namespace milab {

AffineCouplingImpl::AffineCouplingImpl(int64_t dim, int64_t width, int64_t index, at::Generator& gen) {
  at::Tensor m = at::ones({dim});  // 0 where the coordinate moves
  for (int64_t i = 0; i < dim; ++i) {
    const bool moves = index % 4 == 0   ? i % 2 == 0
                       : index % 4 == 1 ? i % 2 == 1
                       : index % 4 == 2 ? i < dim / 2
                                        : i >= dim / 2;
    if (moves) m[i] = 0;
  }
  mask = register_buffer("mask", m);
  first = register_module("first", torch::nn::Linear(dim, width));
  second = register_module("second", torch::nn::Linear(width, width));
  out = register_module("out", torch::nn::Linear(width, 2 * dim));
  initLinear(first, gen);
  initLinear(second, gen);
  {
    c10::NoGradGuard noGrad;
    out->weight.zero_();  // the identity at the start
    out->bias.zero_();
  }
  scale = register_parameter("scale", at::ones({dim}));
}

std::pair<at::Tensor, at::Tensor> AffineCouplingImpl::forward(const at::Tensor& x) {
  const at::Tensor kept = x * mask, moved = 1 - mask;
  const std::vector<at::Tensor> st = out(second(first(kept).relu()).relu()).chunk(2, 1);
  const at::Tensor s = scale * at::tanh(st[0]) * moved, t = st[1] * moved;
  return {kept + moved * (x * at::exp(s) + t), s.sum(1)};
}

CouplingFlowImpl::CouplingFlowImpl(int64_t dim, int64_t depth, int64_t width, at::Generator& gen) {
  shift = register_parameter("shift", at::zeros({dim}));
  logScale = register_parameter("log_scale", at::zeros({dim}));
  logPower = register_parameter("log_power", at::zeros({dim}));
  lower = register_parameter("mixing_lower", at::zeros({dim, dim}));
  upper = register_parameter("mixing_upper", at::zeros({dim, dim}));
  logDiagonal = register_parameter("mixing_log_diagonal", at::zeros({dim}));
  identity = register_buffer("identity", at::eye(dim));
  for (int64_t l = 0; l < depth; ++l)
    layers.push_back(register_module("coupling" + std::to_string(l), AffineCoupling(dim, width, l, gen)));
}

std::pair<at::Tensor, at::Tensor> CouplingFlowImpl::forward(const at::Tensor& x) {
  const at::Tensor u = (x + shift) * at::exp(logScale);
  // |u| kept above 1e-6: the power's derivative p |u|^(p-1) is infinite at 0 for p < 1 (a measure-zero point).
  const at::Tensor magnitude = u.abs().clamp_min(1e-6), p = at::exp(logPower);
  const at::Tensor mixing =
      (at::tril(lower, -1) + identity).matmul(at::triu(upper, 1) + at::diag_embed(at::exp(logDiagonal)));
  at::Tensor z = (at::sign(u) * magnitude.pow(p)).matmul(mixing.t());
  at::Tensor logDet = logScale.sum() + logDiagonal.sum() + (logPower + (p - 1) * magnitude.log()).sum(1);
  for (auto& layer : layers) {
    auto [next, ld] = layer->forward(z);
    z = next;
    logDet = logDet + ld;
  }
  return {z, logDet};
}

}  // namespace milab
