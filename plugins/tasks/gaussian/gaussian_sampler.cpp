#include "gaussian_sampler.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

#include "random/philox_normals.h"
#include "tasks/on_device.h"

namespace milab {

namespace {
at::Tensor column(const GaussianModel& m, double (*f)(const GaussianDim&), c10::Device device,
                  at::ScalarType type = at::kFloat) {
  std::vector<double> v;
  for (const GaussianDim& d : m.dims()) v.push_back(f(d));
  return at::tensor(v, at::kDouble).to(device, type);
}

// log N(y; mean, exp(logVar)) - log N(y; 0, 1), summed over the last axis.
at::Tensor logRatioToStandard(const at::Tensor& y, const at::Tensor& mean, const at::Tensor& logVar) {
  return (-0.5 * logVar - (y - mean).pow(2) * (-logVar).exp() * 0.5 + y.pow(2) * 0.5).sum(-1);
}
}  // namespace

GaussianSampler::GaussianSampler(const GaussianModel& model, c10::Device device)
    : TaskSampler(device), dim_(model.dim()), subview_(model.hasSubview()), cubic_(model.cubic()) {
  b_ = column(
      model, [](const GaussianDim& d) { return d.b; }, device);
  bNoise_ = column(
      model, [](const GaussianDim& d) { return std::sqrt(1.0 - d.b * d.b); }, device);
  bp_ = column(
      model, [](const GaussianDim& d) { return d.bp; }, device);
  bx_ = column(
      model, [](const GaussianDim& d) { return d.bx; }, device);
  sigma_ = column(
      model, [](const GaussianDim& d) { return std::sqrt(d.sigma2); }, device);
  a_ = column(
      model, [](const GaussianDim& d) { return d.a; }, device);
  condSd_ = column(
      model, [](const GaussianDim& d) { return std::sqrt(d.condVar); }, device);
  bp64_ = column(
      model, [](const GaussianDim& d) { return d.bp; }, device, at::kDouble);
  bx64_ = column(
      model, [](const GaussianDim& d) { return d.bx; }, device, at::kDouble);
  logSigma2_ = column(
      model, [](const GaussianDim& d) { return std::log(d.sigma2); }, device, at::kDouble);
  a64_ = column(
      model, [](const GaussianDim& d) { return d.a; }, device, at::kDouble);
  logCondVar_ = column(
      model, [](const GaussianDim& d) { return std::log(d.condVar); }, device, at::kDouble);
  const auto eigenvalues = [](const std::vector<double>& v) {
    return at::tensor(at::ArrayRef<double>(v), at::TensorOptions().dtype(at::kDouble));
  };
  xSide_ = {eigenvalues(model.xSideEigenvalues()), eigenvalues(model.xSideEigenvaluesGivenY())};
}

at::Tensor GaussianSampler::pmi(const at::Tensor& x, const at::Tensor& xp, const at::Tensor& y) const {
  at::Tensor yLatent = y.to(at::kDouble);
  // y -> y^3 is a bijection: the Jacobians of p(y^3|x) and p(y^3) cancel, so the PMI is that of cbrt(y^3).
  if (cubic_) yLatent = yLatent.sign() * yLatent.abs().pow(1.0 / 3.0);
  at::Tensor mean = bx64_ * x.to(at::kDouble);
  if (subview_) mean = mean + bp64_ * xp.to(at::kDouble);
  return logRatioToStandard(yLatent, mean, logSigma2_);
}

at::Tensor GaussianSampler::logMarginalY(const at::Tensor& y) const {
  at::Tensor u = y.to(at::kDouble);
  at::Tensor jacobian = at::zeros_like(u);
  if (cubic_) {
    u = u.sign() * u.abs().pow(1.0 / 3.0);
    jacobian = -(3.0 * u.pow(2)).log();  // p(y^3) = p(u) / |d(u^3)/du|
  }
  return (-0.5 * std::log(2 * M_PI) - 0.5 * u.pow(2) + jacobian).sum(-1);
}

at::Tensor GaussianSampler::subviewPmi(const at::Tensor& xp, const at::Tensor& y) const {
  if (!subview_) throw std::logic_error("subviewPmi needs a task with a subview x'");
  return logRatioToStandard(y.to(at::kDouble), a64_ * xp.to(at::kDouble), logCondVar_);
}

DiagonalGaussian GaussianSampler::yGivenXp(const at::Tensor& xp) const {
  if (!subview_) throw std::logic_error("yGivenXp needs a task with a subview x'");
  const at::Tensor mean = a64_ * xp.to(at::kDouble);
  return {mean, logCondVar_.expand_as(mean)};
}

at::Tensor GaussianSampler::noise(at::IntArrayRef shape, at::Generator& gen) const {
  // Drawn where the generator lives (the run's device; the CPU for a CPU run), then placed on this sampler's
  // device: moved only when a caller hands a CPU generator to a GPU sampler (a sample set's one draw).
  return onDevice(at::randn(shape, gen, at::TensorOptions().dtype(at::kFloat).device(gen.device())), device());
}

Batch GaussianSampler::sampleJoint(int64_t n, at::Generator& gen) const {
  const at::Tensor z = noise({3, n, dim_}, gen);
  Batch batch;
  if (subview_) {
    batch.xp = z[0];
    batch.x = b_ * batch.xp + bNoise_ * z[1];
    batch.y = bp_ * batch.xp + bx_ * batch.x + sigma_ * z[2];
  } else {
    batch.x = z[0];
    batch.y = bx_ * batch.x + sigma_ * z[2];
  }
  if (cubic_) batch.y = batch.y.pow(3);
  return batch;
}

at::Tensor GaussianSampler::sampleMarginalY(int64_t n, at::Generator& gen) const {
  // Every y_i is N(0, 1) (the coefficients are normalised so; logRatioToStandard relies on it): one normal each.
  const at::Tensor y = noise({n, dim_}, gen);
  return cubic_ ? y.pow(3) : y;
}

at::Tensor GaussianSampler::sampleYGivenXp(const at::Tensor& xp, int64_t perRow, at::Generator& gen) const {
  if (!subview_) throw std::logic_error("sampleYGivenXp needs a task with a subview x'");
  // y | x' ~ N(a x', 1 - a^2) per dimension, formed in the noise's own buffer (no second [B, perRow, d] tensor).
  // The conditional negatives are the lab's largest draw (80,640 normals a DEMI step at K = 128): Philox's.
  return onDevice(philoxNormals({xp.size(0), perRow, dim_}, gen), device()).mul_(condSd_).add_((a_ * xp).unsqueeze(1));
}

}  // namespace milab
