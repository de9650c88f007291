#pragma once
// Covariate Gaussians with a known, exact mutual information (DEMI paper sec. 5.1 / A.6).
// Every dimension i is independent; within it the variables have unit variance and
//   x'_i = z1,   x_i = b_i x'_i + sqrt(1 - b_i^2) z2,   y_i = bp_i x'_i + bx_i x_i + sigma_i z3.
// gaussian2 has no x' (b = bp = 0). Plain C++ and Eigen: no torch, no Qt.
#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "tasks/gaussian_mi.h"

namespace milab {

struct GaussianDim {
  double mi = 0;     // target I(x_i, x'_i; y_i) (gaussian2: I(x_i; y_i))
  double alpha = 0;  // target I(x'_i; y_i) / I(x_i, x'_i; y_i); 0 for gaussian2
  double a = 0;      // corr(x'_i, y_i)
  double b = 0;      // corr(x_i, x'_i)
  double c = 0;      // corr(x_i, y_i)
  double bx = 0, bp = 0;  // regression of y_i on (x_i, x'_i)
  double sigma2 = 1;      // Var(y_i | x_i, x'_i), kept exact (= exp(-2 mi)) instead of 1 - R^2
  double condVar = 1;     // Var(y_i | x'_i) = 1 - a^2, kept exact (= exp(-2 alpha mi))
};

class GaussianModel {
 public:
  // Per-dimension MI above this loses precision in double (1 - rho^2 = e^{-2 mi}); tasks keep mi <= 5 * dim
  // and the random split never puts more than this on one dimension.
  static constexpr double kMaxDimMi = 10.0;
  static constexpr double kMaxMeanDimMi = 5.0;

  // gaussian2: x, y in R^dim, corr(x_j, y_j) = rho with I(x; y) = mi; `cubic` maps y -> y^3 (MI unchanged).
  static GaussianModel pair(int dim, double mi, bool cubic);
  // gaussian3: x, x', y in R^dim; mi split at random over dims (uniform on the simplex), alpha per dim from
  // U(0.1, 0.9) unless fixed; corr(x, x') per dim from U(-0.5, 0.5). Deterministic in `seed`.
  static GaussianModel triple(int dim, double mi, std::optional<double> alpha, std::uint64_t seed);

  bool hasSubview() const { return subview_; }
  bool cubic() const { return cubic_; }
  int dim() const { return static_cast<int>(dims_.size()); }
  const std::vector<GaussianDim>& dims() const { return dims_; }

  // Covariance of (x_i, x'_i, y_i) in that order (gaussian2: (x_i, y_i)).
  Eigen::MatrixXd covariance(int i) const;

  // The eigenvalues of the covariance of the critic input (x, or [x, x'] as criticInput orders it), and of its
  // covariance given y; y's cubic map changes neither (it is a bijection).
  std::vector<double> xSideEigenvalues() const;
  std::vector<double> xSideEigenvaluesGivenY() const;

  // Exact values from log-determinants of the covariances, summed over dimensions.
  double totalMi() const;        // I(x, x'; y)   (gaussian2: I(x; y))
  double subviewMi() const;      // I(x'; y)      (gaussian2: 0)
  double conditionalMi() const;  // I(x; y | x')  (gaussian2: I(x; y))
  double xOnlyMi() const;        // I(x; y)

 private:
  bool subview_ = false;
  bool cubic_ = false;
  std::vector<GaussianDim> dims_;
};

}  // namespace milab
