#pragma once
// A mixture of Gaussians over (x, y), the "mix" of bmi's Bend and Mix Models (Czyż et al., "On the properties and
// estimation of pointwise mutual information profiles"; cbg-ethz/bmi src/bmi/samplers/_tfp): each component a
// multivariate normal over the joint, each marginal the mixture of the components' marginals with the same weights.
// Its log densities are exact; its MI is not, and is read as the Monte Carlo mean of the pointwise MI
// (monte_carlo_truth.h). Double precision, Eigen for the densities; draws take the caller's torch generator.
#include <ATen/core/Generator.h>

#include <Eigen/Core>
#include <QList>

namespace milab::bend_and_mix {

struct MixtureComponent {
  double weight = 1;
  Eigen::VectorXd mean;        // [dimX + dimY]
  Eigen::MatrixXd covariance;  // of (x, y), positive definite
};

// Which of the mixture's laws a density is of: the joint over (x, y), or a marginal.
enum class Part { Joint, X, Y };

class GaussianMixture {
 public:
  // Weights are normalised to sum to 1. Throws std::invalid_argument on an empty list, a non-positive weight, a
  // shape that does not match dimX + dimY, or a covariance that is not positive definite.
  GaussianMixture(int dimX, int dimY, QList<MixtureComponent> components);

  int dimX() const { return dimX_; }
  int dimY() const { return dimY_; }
  const QList<MixtureComponent>& components() const { return components_; }

  // log p of each row of `rows` ([n, the part's width]) under the joint or a marginal.
  Eigen::VectorXd logDensity(Part part, const Eigen::MatrixXd& rows) const;
  // log p(x, y) - log p(x) - log p(y) of each row of joint rows [n, dimX + dimY].
  Eigen::VectorXd pointwiseMi(const Eigen::MatrixXd& joint) const;
  // n joint rows [n, dimX + dimY]: a component drawn by its weight, then its normal.
  Eigen::MatrixXd sample(int64_t n, at::Generator& gen) const;

 private:
  struct Factor {
    Eigen::MatrixXd lower;  // Cholesky factor of the part's covariance
    double logNormaliser;   // log of the normal's constant: -(1/2) log det(2 pi covariance)
  };
  int offsetOf(Part part) const { return part == Part::Y ? dimX_ : 0; }
  int widthOf(Part part) const { return part == Part::Joint ? dimX_ + dimY_ : part == Part::X ? dimX_ : dimY_; }

  int dimX_, dimY_;
  QList<MixtureComponent> components_;
  QList<Factor> factors_[3];  // per Part, per component
};

}  // namespace milab::bend_and_mix
