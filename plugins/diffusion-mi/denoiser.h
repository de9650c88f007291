#pragma once
// The diffusion estimators' denoiser: one network that predicts the noise in z_g = sqrt(sigmoid(g)) x +
// sqrt(sigmoid(-g)) noise, with y or without it (classifier-free guidance's single network; MINDE's masks). It reads
// [z, y * keep, keep, level]: keep is 1 where y is given and 0 where it is dropped, so a dropped y is never mistaken
// for y = 0 (MMG's code feeds zeros with no flag; MINDE's zeros y and flags it by y's time), and level is the noise
// level as the estimator states it (mmg: g / 10, about [-1, 1.4] over its range; minde-c: the VP-SDE's time t).
// `layers` hidden SiLU layers of `hidden` units; the references' small U-Net MLP (two residual blocks with group
// norm and a learned embedding of the level) is replaced by this plain MLP, which keeps each estimator and its
// reading the same.
#include <ATen/core/Generator.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <vector>

namespace milab {

struct DenoiserImpl : torch::nn::Module {
  DenoiserImpl(int64_t dimX, int64_t dimY, int64_t hidden, int64_t layers, at::Generator& gen);
  // The predicted noise [n, dimX] for z [n, dimX] at noise level `level` [n], given y [n, dimY] where keep [n] is 1.
  at::Tensor forward(const at::Tensor& z, const at::Tensor& level, const at::Tensor& y, const at::Tensor& keep);
  std::vector<torch::nn::Linear> hiddenLayers;
  torch::nn::Linear output{nullptr};
};
TORCH_MODULE(Denoiser);

// Which of n training rows keep their y: each independently with probability 1 - dropout, as 1 or 0 in `options`.
at::Tensor keptRows(int64_t n, double dropout, at::Generator& gen, const at::TensorOptions& options);

}  // namespace milab
