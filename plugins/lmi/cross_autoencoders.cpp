#include "cross_autoencoders.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <string>

namespace milab {

namespace {

constexpr double kLeakySlope = 0.2;

// Xavier (Glorot) uniform: U(-a, a) with a = sqrt(6 / (fan_in + fan_out)), the reference's init_weights.
void initXavier(torch::nn::Linear& layer, at::Generator& gen) {
  c10::NoGradGuard noGrad;
  const at::Tensor& w = layer->weight;
  const double bound = std::sqrt(6.0 / double(w.size(0) + w.size(1)));
  w.copy_(at::rand(w.sizes(), gen, w.options()) * (2 * bound) - bound);
  layer->bias.zero_();
}

}  // namespace

LeakyChainImpl::LeakyChainImpl(const std::vector<int64_t>& widths, bool activate, at::Generator& gen)
    : activateOutput(activate) {
  for (size_t i = 0; i + 1 < widths.size(); ++i) {
    torch::nn::Linear layer(widths[i], widths[i + 1]);
    initXavier(layer, gen);
    layers.push_back(register_module("layer" + std::to_string(i), layer));
  }
}

at::Tensor LeakyChainImpl::forward(at::Tensor h, double dropout, at::Generator* dropoutGen) {
  for (size_t i = 0; i < layers.size(); ++i) {
    if (dropoutGen && dropout > 0) {
      const at::Tensor keep = at::empty_like(h).bernoulli_(1 - dropout, *dropoutGen);
      h = h * keep / (1 - dropout);
    }
    h = layers[i]->forward(h);
    if (i + 1 < layers.size() || activateOutput) h = at::leaky_relu(h, kLeakySlope);
  }
  return h;
}

CrossAutoencodersImpl::CrossAutoencodersImpl(int64_t dimX, int64_t dimY, int64_t latentX, int64_t latentY,
                                             int64_t hidden, at::Generator& gen) {
  const int64_t h1 = hidden, h2 = hidden / 2, h3 = hidden / 4;
  encoderX = register_module("encoderX", LeakyChain(std::vector<int64_t>{dimX, h1, h2, h3, latentX}, true, gen));
  encoderY = register_module("encoderY", LeakyChain(std::vector<int64_t>{dimY, h1, h2, h3, latentY}, true, gen));
  decoderXX = register_module("decoderXX", LeakyChain(std::vector<int64_t>{latentX, h3, h2, h1, dimX}, false, gen));
  decoderYY = register_module("decoderYY", LeakyChain(std::vector<int64_t>{latentY, h3, h2, h1, dimY}, false, gen));
  decoderXY = register_module("decoderXY", LeakyChain(std::vector<int64_t>{latentX, h3, h2, h1, dimY}, false, gen));
  decoderYX = register_module("decoderYX", LeakyChain(std::vector<int64_t>{latentY, h3, h2, h1, dimX}, false, gen));
}

CrossAutoencodersImpl::Latents CrossAutoencodersImpl::encode(const at::Tensor& x, const at::Tensor& y) {
  return {encoderX->forward(x), encoderY->forward(y)};
}

at::Tensor CrossAutoencodersImpl::loss(const at::Tensor& x, const at::Tensor& y, const Latents& z, const Weights& w,
                                       at::Generator* dropoutGen) {
  const auto mse = [](const at::Tensor& guess, const at::Tensor& truth) { return (guess - truth).pow(2).mean(); };
  const at::Tensor cross =
      mse(decoderYX->forward(z.zy, w.dropout, dropoutGen), x) + mse(decoderXY->forward(z.zx, w.dropout, dropoutGen), y);
  const at::Tensor self = mse(decoderXX->forward(z.zx), x) + mse(decoderYY->forward(z.zy), y);
  return w.cross * cross + w.self * self;
}

}  // namespace milab
