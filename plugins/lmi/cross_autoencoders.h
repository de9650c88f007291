#pragma once
// LMI's networks (Gowri et al., NeurIPS 2024; ggdna/latentmi models.AECross): an encoder per side to a small latent,
// a decoder per side back from its own latent, and two cross decoders that predict each side from the other's latent,
// with dropout before each of their layers. The loss, each term a mean squared error over rows and columns:
//   cross_weight (|x - dec_yx(z_y)|^2 + |y - dec_xy(z_x)|^2) + self_weight (|x - dec_xx(z_x)|^2 + |y - dec_yy(z_y)|^2)
// The cross terms make each latent keep what predicts the other side, the self terms what describes its own.
// Hidden widths h, h/2, h/4 with LeakyReLU(0.2) after every layer of the encoders (their latents too) and after every
// hidden layer of the decoders; Xavier-uniform weights and zero biases, from the run's own generator.
// Torch header: include it only from torch translation units.
#include <ATen/core/Generator.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <vector>

namespace milab {

// Linear layers of the given widths (in, ..., out) with LeakyReLU(0.2) between them, and after the last when
// `activateOutput`.
struct LeakyChainImpl : torch::nn::Module {
  LeakyChainImpl(const std::vector<int64_t>& widths, bool activateOutput, at::Generator& gen);
  // With `dropoutGen`, each layer's input is dropped with probability `dropout` (inverted dropout, from that
  // generator: torch's own Dropout would draw from the global one, and concurrent runs would not repeat).
  at::Tensor forward(at::Tensor h, double dropout = 0, at::Generator* dropoutGen = nullptr);
  std::vector<torch::nn::Linear> layers;
  bool activateOutput;
};
TORCH_MODULE(LeakyChain);

struct CrossAutoencodersImpl : torch::nn::Module {
  CrossAutoencodersImpl(int64_t dimX, int64_t dimY, int64_t latentX, int64_t latentY, int64_t hidden,
                        at::Generator& gen);
  struct Latents {
    at::Tensor zx, zy;
  };
  Latents encode(const at::Tensor& x, const at::Tensor& y);
  struct Weights {
    double cross = 1, self = 1, dropout = 0;
  };
  // The loss above on latents `z` of (x, y); dropout in the cross decoders only with `dropoutGen` (training).
  at::Tensor loss(const at::Tensor& x, const at::Tensor& y, const Latents& z, const Weights& w,
                  at::Generator* dropoutGen);
  LeakyChain encoderX{nullptr}, encoderY{nullptr}, decoderXX{nullptr}, decoderYY{nullptr}, decoderXY{nullptr},
      decoderYX{nullptr};
};
TORCH_MODULE(CrossAutoencoders);

}  // namespace milab
