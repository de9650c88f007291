#include "gaussian_mixture.h"

#include <ATen/ATen.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <stdexcept>

namespace milab::bend_and_mix {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// log sum_k exp(terms(i, k)) per row, shifted by the row's largest term so that no exp overflows.
Eigen::VectorXd logSumExpRows(const Eigen::MatrixXd& terms) {
  const Eigen::VectorXd top = terms.rowwise().maxCoeff();
  return top + (terms.colwise() - top).array().exp().rowwise().sum().log().matrix();
}

}  // namespace

GaussianMixture::GaussianMixture(int dimX, int dimY, QList<MixtureComponent> components)
    : dimX_(dimX), dimY_(dimY), components_(std::move(components)) {
  if (components_.isEmpty()) throw std::invalid_argument("mixture: no component");
  double total = 0;
  for (const MixtureComponent& c : components_) {
    if (!(c.weight > 0)) throw std::invalid_argument("mixture: a component's weight is not positive");
    if (c.mean.size() != dimX + dimY || c.covariance.rows() != dimX + dimY || c.covariance.cols() != dimX + dimY)
      throw std::invalid_argument("mixture: a component's shape does not match dim_x + dim_y");
    total += c.weight;
  }
  for (MixtureComponent& c : components_) c.weight /= total;
  for (Part part : {Part::Joint, Part::X, Part::Y}) {
    const int offset = offsetOf(part), width = widthOf(part);
    for (const MixtureComponent& c : components_) {
      const Eigen::LLT<Eigen::MatrixXd> llt(c.covariance.block(offset, offset, width, width));
      if (llt.info() != Eigen::Success) throw std::invalid_argument("mixture: a covariance is not positive definite");
      const Eigen::MatrixXd lower = llt.matrixL();
      const double logDet = 2 * lower.diagonal().array().log().sum();
      factors_[int(part)] << Factor{lower, -0.5 * (logDet + width * std::log(2 * M_PI))};
    }
  }
}

Eigen::VectorXd GaussianMixture::logDensity(Part part, const Eigen::MatrixXd& rows) const {
  const int offset = offsetOf(part), width = widthOf(part);
  if (rows.cols() != width) throw std::invalid_argument("mixture: rows of the wrong width for this part");
  Eigen::MatrixXd terms(rows.rows(), components_.size());
  for (int k = 0; k < components_.size(); ++k) {
    const Factor& f = factors_[int(part)][k];
    // Whitened rows L^-1 (row - mean), solved for every row at once (columns of the transposed block).
    Eigen::MatrixXd centred = (rows.rowwise() - components_[k].mean.segment(offset, width).transpose()).transpose();
    f.lower.triangularView<Eigen::Lower>().solveInPlace(centred);
    terms.col(k) = (std::log(components_[k].weight) + f.logNormaliser - 0.5 * centred.colwise().squaredNorm().array())
                       .matrix()
                       .transpose();
  }
  return logSumExpRows(terms);
}

Eigen::VectorXd GaussianMixture::pointwiseMi(const Eigen::MatrixXd& joint) const {
  return logDensity(Part::Joint, joint) - logDensity(Part::X, joint.leftCols(dimX_)) -
         logDensity(Part::Y, joint.rightCols(dimY_));
}

Eigen::MatrixXd GaussianMixture::sample(int64_t n, at::Generator& gen) const {
  const int width = dimX_ + dimY_;
  const auto kDouble = at::TensorOptions().dtype(at::kDouble);
  const at::Tensor u = at::rand({n}, gen, kDouble).contiguous();
  const at::Tensor z = at::randn({n, width}, gen, kDouble).contiguous();
  const Eigen::Map<const Eigen::VectorXd> which(u.data_ptr<double>(), n);
  const Eigen::Map<const RowMajor> normals(z.data_ptr<double>(), n, width);
  Eigen::MatrixXd out(n, width);
  for (int64_t i = 0; i < n; ++i) {
    // The component whose cumulative weight first passes u; the last absorbs rounding.
    int k = 0;
    for (double cumulative = components_[0].weight; k + 1 < components_.size() && which(i) >= cumulative;)
      cumulative += components_[++k].weight;
    out.row(i) = (components_[k].mean + factors_[int(Part::Joint)][k].lower * normals.row(i).transpose()).transpose();
  }
  return out;
}

}  // namespace milab::bend_and_mix
