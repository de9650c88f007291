#include "tasks/gaussian_mi.h"

#include <Eigen/Cholesky>
#include <stdexcept>

namespace milab {

namespace {

Eigen::MatrixXd submatrix(const Eigen::MatrixXd& m, const std::vector<int>& idx) {
  Eigen::MatrixXd s(idx.size(), idx.size());
  for (size_t r = 0; r < idx.size(); ++r)
    for (size_t c = 0; c < idx.size(); ++c) s(r, c) = m(idx[r], idx[c]);
  return s;
}

double logDet(const Eigen::MatrixXd& m) {
  Eigen::LLT<Eigen::MatrixXd> llt(m);
  if (llt.info() != Eigen::Success) throw std::runtime_error("covariance is not positive definite");
  return 2.0 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
}

}  // namespace

double gaussianMi(const Eigen::MatrixXd& cov, const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> ab = a;
  ab.insert(ab.end(), b.begin(), b.end());
  return 0.5 * (logDet(submatrix(cov, a)) + logDet(submatrix(cov, b)) - logDet(submatrix(cov, ab)));
}

}  // namespace milab
