#include "nn/density_model.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <stdexcept>

namespace milab {

DensityFamily densityFamilyOf(const QString& name) {
  if (name == "gaussian") return DensityFamily::Gaussian;
  if (name == "logistic") return DensityFamily::Logistic;
  throw std::invalid_argument("family: must be gaussian or logistic, got '" + name.toStdString() + "'");
}

at::Tensor logDensity(DensityFamily family, const at::Tensor& y, const at::Tensor& mean, const at::Tensor& logScale) {
  const at::Tensor z = (y - mean) * (-logScale).exp();
  if (family == DensityFamily::Gaussian) return (-0.5 * std::log(2 * M_PI) - logScale - 0.5 * z.pow(2)).sum(-1);
  // log of e^-z / (s (1 + e^-z)^2), written with softplus so that neither tail overflows.
  return (-z - logScale - 2.0 * at::softplus(-z)).sum(-1);
}

at::Tensor gaussianMeanLogDensityOverPairs(const at::Tensor& y, const at::Tensor& mean, const at::Tensor& logScale) {
  const at::Tensor precision = (-2.0 * logScale).exp();                // [B, d]
  const at::Tensor m1 = y.mean(0, true), m2 = y.pow(2).mean(0, true);  // [1, d]
  const at::Tensor meanSquare = m2 - 2.0 * mean * m1 + mean.pow(2);    // E_j (y_j - mean_i)^2
  return (-0.5 * std::log(2 * M_PI) - logScale - 0.5 * precision * meanSquare).sum(-1).mean();
}

ConditionalDensityImpl::ConditionalDensityImpl(int64_t xDim, int64_t yDim, int64_t hidden, at::Generator& gen,
                                               ConditionalDensityShape shape)
    : tanh(shape.tanh) {
  net = register_module("net", Mlp(xDim, hidden, 2 * yDim, gen));
  if (shape.initRange > 0) {  // the weights only, as karlstratos/doe's init_weights; the biases keep the default
    c10::NoGradGuard noGrad;
    net->input->weight.uniform_(-shape.initRange, shape.initRange, gen);
    net->output->weight.uniform_(-shape.initRange, shape.initRange, gen);
  }
}

std::pair<at::Tensor, at::Tensor> ConditionalDensityImpl::forward(const at::Tensor& x) {
  const at::Tensor out = tanh ? net->output(at::tanh(net->input(x))) : net->forward(x);
  const std::vector<at::Tensor> halves = out.chunk(2, -1);
  return {halves[0], halves[1]};
}

MarginalDensityImpl::MarginalDensityImpl(int64_t yDim) {
  mean = register_parameter("mean", at::zeros({yDim}));
  logScale = register_parameter("logScale", at::zeros({yDim}));
}

}  // namespace milab
