#include "beyond_normal_sampler.h"

#include <ATen/ATen.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <stdexcept>

namespace milab::beyond_normal {

namespace {

const at::TensorOptions kDouble = at::TensorOptions().dtype(at::kDouble);

// Eigen stores columns contiguously: read as [cols, rows], transposed, copied out of Eigen's buffer.
at::Tensor fromEigen(const Eigen::MatrixXd& m) {
  return at::from_blob(const_cast<double*>(m.data()), {m.cols(), m.rows()}, kDouble).t().clone();
}

// Rows ~ N(0, covariance): standard normals times the covariance's Cholesky factor, the task's own when it keeps one.
at::Tensor gaussianRows(const TaskDefinition& task, int64_t n, at::Generator& gen) {
  const Eigen::MatrixXd lower = task.covarianceFactor.size() ? Eigen::MatrixXd() : lowerCholesky(task.covariance);
  const Eigen::MatrixXd& factor = task.covarianceFactor.size() ? task.covarianceFactor : lower;
  if (factor.size() == 0) throw std::invalid_argument("task: the covariance is not positive definite");
  return at::matmul(at::randn({n, factor.rows()}, gen, kDouble), fromEigen(factor).t());
}

at::Tensor normalCdf(const at::Tensor& v) { return 0.5 * (1 + at::erf(v / std::sqrt(2.0))); }

// x -> R(x) x with R(x) the rotation by angle speed |x|^2 in the plane of coordinates (i, j): exp of bmi's
// so_generator(n, i, j) (entries [i, j] = -1, [j, i] = 1) times the angle.
at::Tensor spiral(const at::Tensor& v, int64_t i, int64_t j) {
  const double speed = 1.0 / double(v.size(1));  // bmi's normalize_speed: speed 1 divided by the dimension
  const at::Tensor angle = speed * v.pow(2).sum(1);
  const at::Tensor c = at::cos(angle), s = at::sin(angle), vi = v.select(1, i), vj = v.select(1, j);
  at::Tensor out = v.clone();
  out.select(1, i).copy_(c * vi - s * vj);
  out.select(1, j).copy_(s * vi + c * vj);
  return out;
}

// The inverse of a strictly increasing CDF on [0, 1] values, by bisection to double precision (vectorised).
at::Tensor inverseCdf(const at::Tensor& u, const std::function<at::Tensor(const at::Tensor&)>& cdf, double low,
                      double high) {
  at::Tensor lo = at::full_like(u, low), hi = at::full_like(u, high);
  for (int iteration = 0; iteration < 200; ++iteration) {
    const at::Tensor mid = 0.5 * (lo + hi);
    const at::Tensor below = cdf(mid) < u;
    lo = at::where(below, mid, lo);
    hi = at::where(below, hi, mid);
  }
  return 0.5 * (lo + hi);
}

}  // namespace

Samples applyTransform(Transform transform, const Samples& in) {
  switch (transform) {
    case Transform::NormalCdf:
      return {normalCdf(in.x), normalCdf(in.y)};
    case Transform::HalfCube:
      return {in.x * at::sqrt(at::abs(in.x)), in.y * at::sqrt(at::abs(in.y))};
    case Transform::Asinh:
      return {at::asinh(in.x), at::asinh(in.y)};
    case Transform::Wiggly: {
      const at::Tensor& x = in.x;
      const at::Tensor& y = in.y;
      return {x + 0.4 * at::sin(x) + 0.2 * at::sin(1.7 * x + 1) + 0.03 * at::sin(3.3 * x - 2.5),
              y - 0.4 * at::sin(0.4 * y) + 0.17 * at::sin(1.3 * y + 3.5) + 0.02 * at::sin(4.3 * y - 2.5)};
    }
    case Transform::Spiral:
      return {spiral(in.x, 0, 1), spiral(in.y, 1, 2)};
    case Transform::SwissRollX: {
      const at::Tensor t = 1.5 * M_PI * (1 + 2 * in.x.select(1, 0));
      return {at::stack({t * at::cos(t), t * at::sin(t)}, 1) / 21.0, in.y};
    }
    case Transform::Bimodal: {
      // bmi's 1v1-bimodal: uniform margins pushed through the inverse CDFs of two Gaussian mixtures.
      const auto cdfX = [](const at::Tensor& v) { return 0.3 * normalCdf(v) + 0.7 * normalCdf(v - 5); };
      const auto cdfY = [](const at::Tensor& v) { return 0.5 * normalCdf(v + 1) + 0.5 * normalCdf(v - 3); };
      return {inverseCdf(in.x, cdfX, -40, 45), inverseCdf(in.y, cdfY, -41, 43)};
    }
  }
  throw std::invalid_argument("task: unknown transform");
}

Eigen::MatrixXd lowerCholesky(const Eigen::MatrixXd& covariance) {
  const Eigen::LLT<Eigen::MatrixXd> llt(covariance);
  if (llt.info() != Eigen::Success) return {};
  return llt.matrixL();
}

Samples sampleTask(const TaskDefinition& task, int64_t n, at::Generator& gen) {
  Samples s;
  switch (task.base) {
    case Base::Multinormal:
    case Base::StudentT: {
      at::Tensor xy = gaussianRows(task, n, gen);
      if (task.base == Base::StudentT) {
        // A multivariate t: the Gaussian over sqrt(W / nu) with W ~ chi^2_nu = 2 Gamma(nu / 2, 1), one W per row.
        const at::Tensor w = 2 * at::_standard_gamma(at::full({n, 1}, 0.5 * task.dof, kDouble), gen);
        xy = xy / at::sqrt(w / task.dof);
      }
      s = {xy.narrow(1, 0, task.dimX).contiguous(), xy.narrow(1, task.dimX, task.dimY).contiguous()};
      break;
    }
    case Base::AdditiveUniform: {
      const at::Tensor x = at::rand({n, 1}, gen, kDouble);
      s = {x, x + (2 * at::rand({n, 1}, gen, kDouble) - 1) * task.epsilon};
      break;
    }
  }
  for (Transform t : task.transforms) s = applyTransform(t, s);
  return s;
}

}  // namespace milab::beyond_normal
