#pragma once
// A RealNVP-style normalizing flow (Dinh et al. 2017): an elementwise affine layer and an elementwise signed power
// (z = sign(u) |u|^p, p > 0 learned per coordinate: affine couplings move a coordinate affinely given the others, so
// a marginal bent on its own, as gaussian2's cubic y -> y^3, is beyond them without it), a learned invertible linear
// map (Glow's 1x1 convolution: it mixes coordinates that no mask pairs, as gaussian3's x_i and x'_i, 10 apart), then
// `depth` affine coupling layers whose masks alternate between even/odd coordinates and lower/upper halves. A coupling
// layer keeps the masked coordinates and moves the others,
//   z = m * x + (1 - m) * (x * exp(s(m * x)) + t(m * x)),   log |det dz/dx| = sum over the moved ones of s,
// where s and t come from one MLP (two hidden ReLU layers of `width`) whose last layer starts at zero, so that the
// untrained flow is the identity; s is bounded by tanh (times a learned per-coordinate scale) so that an early step
// cannot blow a coordinate up. With one coordinate the conditioner reads nothing and the layer is an affine map.
#include <ATen/core/Generator.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <utility>
#include <vector>

namespace milab {

struct AffineCouplingImpl : torch::nn::Module {
  // Layer `index` of a flow: 0 moves the even coordinates, 1 the odd ones, 2 the lower half, 3 the upper, and again.
  AffineCouplingImpl(int64_t dim, int64_t width, int64_t index, at::Generator& gen);
  // (z, log |det dz/dx| per row [B])
  std::pair<at::Tensor, at::Tensor> forward(const at::Tensor& x);
  at::Tensor mask;  // 1 where the coordinate is kept (read by the conditioner), a buffer
  torch::nn::Linear first{nullptr}, second{nullptr}, out{nullptr};
  at::Tensor scale;  // s = scale * tanh(raw s)
};
TORCH_MODULE(AffineCoupling);

struct CouplingFlowImpl : torch::nn::Module {
  CouplingFlowImpl(int64_t dim, int64_t depth, int64_t width, at::Generator& gen);
  // (z, log |det dz/dx| per row [B])
  std::pair<at::Tensor, at::Tensor> forward(const at::Tensor& x);
  at::Tensor shift, logScale;  // the first, elementwise affine layer: u = (x + shift) * exp(logScale)
  at::Tensor logPower;         // then v = sign(u) |u|^p, p = exp(logPower): the identity at the start
  // then z = v W^T with W = L (U + diag(exp(logDiagonal))), L unit lower and U strictly upper triangular (Glow's
  // LU form): log |det W| is the sum of logDiagonal, so the step needs no determinant (slogdet's backward solves
  // with LU and reads its pivots on the host every step). The identity at the start.
  at::Tensor lower, upper, logDiagonal, identity;
  std::vector<AffineCoupling> layers;
};
TORCH_MODULE(CouplingFlow);

}  // namespace milab
