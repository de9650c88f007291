#include "gaussian_model.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace milab {

namespace {

// Unit-variance (x, x', y) with I(x';y) = alpha*mi and I(x,x';y) = mi, corr(x,x') = b.
// I(x';y) = -1/2 log(1 - a^2) fixes a; the multiple correlation R^2 = (a^2 + c^2 - 2abc) / (1 - b^2) must equal
// T = 1 - e^{-2 mi}: c^2 - 2ab c + a^2 - T(1 - b^2) = 0, whose roots c = ab +- sqrt((1 - b^2)(T - a^2)) are real
// since T - a^2 = e^{-2 alpha mi} - e^{-2 mi} > 0. Differences of exponentials are formed directly for precision.
GaussianDim solveTripleDim(double mi, double alpha, double b) {
  GaussianDim d;
  d.mi = mi;
  d.alpha = alpha;
  d.b = b;
  d.condVar = std::exp(-2.0 * alpha * mi);
  d.a = std::sqrt(-std::expm1(-2.0 * alpha * mi));
  const double tMinusA2 = std::exp(-2.0 * alpha * mi) - std::exp(-2.0 * mi);
  d.c = d.a * b + std::sqrt((1.0 - b * b) * tMinusA2);
  d.bx = (d.c - d.a * b) / (1.0 - b * b);
  d.bp = (d.a - b * d.c) / (1.0 - b * b);
  d.sigma2 = std::exp(-2.0 * mi);
  return d;
}

}  // namespace

GaussianModel GaussianModel::pair(int dim, double mi, bool cubic) {
  if (dim < 1 || !(mi > 0) || mi / dim > kMaxDimMi) throw std::invalid_argument("gaussian2: bad dim or mi");
  GaussianModel m;
  m.cubic_ = cubic;
  const double miDim = mi / dim;
  GaussianDim d;
  d.mi = miDim;
  d.c = std::sqrt(-std::expm1(-2.0 * miDim));  // rho with -1/2 log(1 - rho^2) = mi/dim
  d.bx = d.c;
  d.sigma2 = std::exp(-2.0 * miDim);
  m.dims_.assign(dim, d);
  return m;
}

GaussianModel GaussianModel::triple(int dim, double mi, std::optional<double> alpha, std::uint64_t seed) {
  if (dim < 1 || !(mi > 0) || mi > kMaxMeanDimMi * dim) throw std::invalid_argument("gaussian3: bad dim or mi");
  if (alpha && !(*alpha > 0 && *alpha < 1)) throw std::invalid_argument("gaussian3: alpha outside (0, 1)");
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> expo(1.0);
  std::uniform_real_distribution<double> alphaDist(0.1, 0.9), corrDist(-0.5, 0.5);

  // Uniform split on the simplex (normalised exponentials): every share > 0.
  std::vector<double> w(dim);
  double sum = 0;
  for (double& v : w) sum += (v = expo(rng));
  for (double& v : w) v /= sum;
  // Pull the split towards equal shares just enough that no dimension exceeds kMaxDimMi (mixing keeps it > 0
  // and sums to 1). Only reachable when mi > kMaxDimMi; mi <= kMaxMeanDimMi * dim guarantees lambda > 0.
  const double wMax = *std::max_element(w.begin(), w.end());
  if (mi * wMax > kMaxDimMi) {
    const double lambda = (kMaxDimMi / mi - 1.0 / dim) / (wMax - 1.0 / dim);
    for (double& v : w) v = lambda * v + (1.0 - lambda) / dim;
  }

  GaussianModel m;
  m.subview_ = true;
  m.dims_.reserve(dim);
  for (int i = 0; i < dim; ++i) {
    const double a = alpha ? *alpha : alphaDist(rng);
    const double b = corrDist(rng);
    m.dims_.push_back(solveTripleDim(mi * w[i], a, b));
  }
  return m;
}

Eigen::MatrixXd GaussianModel::covariance(int i) const {
  const GaussianDim& d = dims_.at(i);
  if (!subview_) {
    Eigen::MatrixXd c(2, 2);
    c << 1, d.c, d.c, 1;
    return c;
  }
  Eigen::MatrixXd c(3, 3);
  c << 1, d.b, d.c,  //
      d.b, 1, d.a,   //
      d.c, d.a, 1;
  return c;
}

std::vector<double> GaussianModel::xSideEigenvalues() const {
  std::vector<double> out;
  for (const GaussianDim& d : dims_) {
    if (!subview_) {
      out.push_back(1.0);  // x_i ~ N(0, 1)
    } else {
      out.push_back(1.0 + std::abs(d.b));  // [[1, b], [b, 1]] of (x_i, x'_i)
      out.push_back(1.0 - std::abs(d.b));
    }
  }
  return out;
}

std::vector<double> GaussianModel::xSideEigenvaluesGivenY() const {
  std::vector<double> out;
  for (int i = 0; i < dim(); ++i) {
    const GaussianDim& d = dims_[i];
    if (!subview_) {
      out.push_back(d.sigma2);  // Var(x_i | y_i) = 1 - c^2 = Var(y_i | x_i), kept exact as e^{-2 mi}
      continue;
    }
    // The Schur complement of Var(y_i) = 1 in the covariance of (x_i, x'_i, y_i).
    const Eigen::MatrixXd c = covariance(i);
    const Eigen::Matrix2d given = c.topLeftCorner(2, 2) - c.topRightCorner(2, 1) * c.bottomLeftCorner(1, 2);
    const Eigen::Vector2d values = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(given).eigenvalues();
    out.push_back(values(0));
    out.push_back(values(1));
  }
  return out;
}

double GaussianModel::totalMi() const {
  double s = 0;
  for (int i = 0; i < dim(); ++i)
    s += subview_ ? gaussianMi(covariance(i), {0, 1}, {2}) : gaussianMi(covariance(i), {0}, {1});
  return s;
}

double GaussianModel::subviewMi() const {
  if (!subview_) return 0.0;
  double s = 0;
  for (int i = 0; i < dim(); ++i) s += gaussianMi(covariance(i), {1}, {2});
  return s;
}

double GaussianModel::conditionalMi() const { return totalMi() - subviewMi(); }

double GaussianModel::xOnlyMi() const {
  double s = 0;
  for (int i = 0; i < dim(); ++i)
    s += subview_ ? gaussianMi(covariance(i), {0}, {2}) : gaussianMi(covariance(i), {0}, {1});
  return s;
}

}  // namespace milab
