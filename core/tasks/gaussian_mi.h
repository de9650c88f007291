#pragma once
// The mutual information of jointly Gaussian variables, from log-determinants: what every Gaussian family's exact
// truth reduces to (the covariate Gaussians, Beyond-Normal's multinormal and Student-t dispersions). Eigen only.
#include <Eigen/Core>
#include <vector>

namespace milab {

// 0.5 * (log det S_aa + log det S_bb - log det S_{a+b}) for index sets a, b of a covariance.
double gaussianMi(const Eigen::MatrixXd& cov, const std::vector<int>& a, const std::vector<int>& b);

}  // namespace milab
