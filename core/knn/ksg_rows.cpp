#include "knn/ksg_rows.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "method/estimator.h"

namespace milab {

SampleMatrix samplesOfRows(const at::Tensor& t) {
  const at::Tensor rows = t.to(at::kCPU, at::kDouble).contiguous();
  return Eigen::Map<const SampleMatrix>(rows.data_ptr<double>(), rows.size(0), rows.size(1));
}

void breakTies(SampleMatrix* m, std::mt19937_64* rng, const CancelCheck& cancelled) {
  std::normal_distribution<double> normal;
  for (Eigen::Index c = 0; c < m->cols(); ++c) {
    if (cancelled && cancelled()) throw EstimatorCancelled();
    const double scale = 1e-10 * std::max(1.0, m->col(c).cwiseAbs().mean());
    for (Eigen::Index r = 0; r < m->rows(); ++r) (*m)(r, c) += scale * normal(*rng);
  }
}

}  // namespace milab
