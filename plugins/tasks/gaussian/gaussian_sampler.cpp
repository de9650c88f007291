#include "gaussian_sampler.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

#include "nn/device_route.h"
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
  // device: moved only when a caller hands a CPU generator to a GPU sampler (a sample set's one draw). Philox's
  // normals on a CPU (random/philox_normals: a fraction of at::randn's cost a normal, and at::randn's draws were a
  // sizeable part of InfoNCE's K = 128 step; docs/speed.md, "Speed"), at::randn elsewhere.
  return onDevice(philoxNormals(shape, gen), device());
}

Batch GaussianSampler::sampleJoint(int64_t n, at::Generator& gen) const {
  // One normal per coordinate of each independent source (x' or x, the x noise, the y noise), and the structural
  // equations formed in the noise's own rows: no temporaries.
  at::Tensor z = noise({subview_ ? 3 : 2, n, dim_}, gen);
  if (z.is_cpu() && !cpuTakesDeviceRoute()) {
    formOnHost(z.data_ptr<float>(), n);
  } else if (subview_) {
    z[1].mul_(bNoise_).addcmul_(b_, z[0]);                      // x = b x' + sqrt(1 - b^2) e_x
    z[2].mul_(sigma_).addcmul_(bx_, z[1]).addcmul_(bp_, z[0]);  // y = bp x' + bx x + sigma e_y
    if (cubic_) z[2].pow_(3);
  } else {
    z[1].mul_(sigma_).addcmul_(bx_, z[0]);  // y = bx x + sigma e_y
    if (cubic_) z[1].pow_(3);
  }
  Batch batch;
  if (subview_) batch.xp = z[0];
  batch.x = z[subview_ ? 1 : 0];
  batch.y = z[subview_ ? 2 : 1];
  return batch;
}

void GaussianSampler::formOnHost(float* z, int64_t n) const {
  // The same equations as the device's in-place operations, in one loop: at InfoNCE's K = 128 they were five
  // operations over [128, 20] rows with a broadcast coefficient each, about as long as drawing the noise.
  const int64_t d = dim_, rows = n * d;
  const float *b = b_.data_ptr<float>(), *bNoise = bNoise_.data_ptr<float>(), *bp = bp_.data_ptr<float>();
  const float *bx = bx_.data_ptr<float>(), *sigma = sigma_.data_ptr<float>();
  float* xp = subview_ ? z : nullptr;
  float* x = subview_ ? z + rows : z;
  float* y = x + rows;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t row = i * d;
    for (int64_t j = 0; j < d; ++j) {
      float& xv = x[row + j];
      float& yv = y[row + j];
      if (subview_) {
        xv = b[j] * xp[row + j] + bNoise[j] * xv;
        yv = bp[j] * xp[row + j] + bx[j] * xv + sigma[j] * yv;
      } else {
        yv = bx[j] * xv + sigma[j] * yv;
      }
      if (cubic_) yv = yv * yv * yv;
    }
  }
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
