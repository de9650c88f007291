#include "knn/ksg_every_pair.h"

#include <algorithm>
#include <limits>

#include "method/estimator.h"

namespace milab {

namespace {

using ColumnMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;

// The max-norm distance from point i to every point, in one variable: a max over its columns of |column - value|.
void maxNormDistancesFrom(const ColumnMatrix& m, Eigen::Index i, Eigen::ArrayXd* out) {
  out->setZero();
  for (Eigen::Index c = 0; c < m.cols(); ++c) *out = out->max((m.col(c).array() - m(i, c)).abs());
}

}  // namespace

std::vector<std::vector<int>> everyPairNeighbourCounts(const std::vector<const SampleMatrix*>& variables,
                                                       const std::vector<std::vector<int>>& subspaces, int k,
                                                       const CancelCheck& cancelled) {
  const Eigen::Index n = variables.front()->rows();
  std::vector<ColumnMatrix> columns;  // a column's values contiguous: one point's distances are vector operations
  columns.reserve(variables.size());
  for (const SampleMatrix* v : variables) columns.emplace_back(*v);
  std::vector<Eigen::ArrayXd> distances(variables.size(), Eigen::ArrayXd(n));
  Eigen::ArrayXd joint(n), subspace(n);
  std::vector<double> others(static_cast<size_t>(n));
  std::vector<std::vector<int>> counts(subspaces.size(), std::vector<int>(static_cast<size_t>(n)));
  for (Eigen::Index i = 0; i < n; ++i) {
    // Each point costs N d operations (milliseconds at 10^5 points): polled at every one, a cancel is prompt.
    if (cancelled && cancelled()) throw EstimatorCancelled();
    for (size_t v = 0; v < columns.size(); ++v) maxNormDistancesFrom(columns[v], i, &distances[v]);
    joint = distances[0];
    for (size_t v = 1; v < distances.size(); ++v) joint = joint.max(distances[v]);
    joint(i) = std::numeric_limits<double>::infinity();  // not its own neighbour
    std::copy(joint.data(), joint.data() + n, others.begin());
    std::nth_element(others.begin(), others.begin() + (k - 1), others.end());
    const double eps = others[size_t(k - 1)];
    const int self = eps > 0 ? 1 : 0;  // a point is at distance 0 from itself in every subspace
    for (size_t s = 0; s < subspaces.size(); ++s) {
      subspace = distances[size_t(subspaces[s][0])];
      for (size_t v = 1; v < subspaces[s].size(); ++v) subspace = subspace.max(distances[size_t(subspaces[s][v])]);
      counts[s][size_t(i)] = int((subspace < eps).count()) - self;
    }
  }
  return counts;
}

}  // namespace milab
