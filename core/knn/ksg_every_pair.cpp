#include "knn/ksg_every_pair.h"

#include <algorithm>
#include <limits>

#include "method/estimator.h"

namespace milab {

namespace {

using ColumnMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;

// The max-norm distances from point i to the points [first, first + len), in one variable: a max over its columns
// of |column - value|. Taken in blocks of rows that stay in the first-level cache while every column is read.
void maxNormDistancesFrom(const ColumnMatrix& m, Eigen::Index i, Eigen::Index first, Eigen::Index len,
                          Eigen::ArrayXd* out) {
  auto d = out->segment(first, len);
  d = (m.col(0).segment(first, len).array() - m(i, 0)).abs();
  for (Eigen::Index c = 1; c < m.cols(); ++c) d = d.max((m.col(c).segment(first, len).array() - m(i, c)).abs());
}
constexpr Eigen::Index kRowsPerBlock = 512;

// The k-th smallest of v[0..n), as nth_element finds it, for KSG's small k: one pass that keeps the k smallest seen
// in order. Once the first few dozen values are read almost every value is above the k-th best and costs one
// compare, where nth_element partitions the whole array (bench_ksg: docs/speed.md, "KSG").
constexpr int kLargestScannedK = 32;
double kthSmallest(const double* v, Eigen::Index n, int k, std::vector<double>* best) {
  best->assign(size_t(k), std::numeric_limits<double>::infinity());
  double* b = best->data();
  double kth = b[k - 1];
  for (Eigen::Index j = 0; j < n; ++j) {
    const double d = v[j];
    if (d >= kth) continue;
    int at = k - 1;  // insertion: shift the larger ones up, dropping the k-th
    while (at > 0 && b[at - 1] > d) {
      b[at] = b[at - 1];
      --at;
    }
    b[at] = d;
    kth = b[k - 1];
  }
  return kth;
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
  std::vector<double> others;  // the k smallest joint distances, or (large k) all of them
  std::vector<std::vector<int>> counts(subspaces.size(), std::vector<int>(static_cast<size_t>(n)));
  for (Eigen::Index i = 0; i < n; ++i) {
    // Each point costs N d operations (milliseconds at 10^5 points): polled at every one, a cancel is prompt.
    if (cancelled && cancelled()) throw EstimatorCancelled();
    for (Eigen::Index first = 0; first < n; first += kRowsPerBlock) {
      const Eigen::Index len = std::min(kRowsPerBlock, n - first);
      for (size_t v = 0; v < columns.size(); ++v) maxNormDistancesFrom(columns[v], i, first, len, &distances[v]);
      auto block = joint.segment(first, len);
      block = distances[0].segment(first, len);
      for (size_t v = 1; v < distances.size(); ++v) block = block.max(distances[v].segment(first, len));
    }
    joint(i) = std::numeric_limits<double>::infinity();  // not its own neighbour
    double eps;
    if (k <= kLargestScannedK) {
      eps = kthSmallest(joint.data(), n, k, &others);
    } else {
      others.assign(joint.data(), joint.data() + n);
      std::nth_element(others.begin(), others.begin() + (k - 1), others.end());
      eps = others[size_t(k - 1)];
    }
    const int self = eps > 0 ? 1 : 0;  // a point is at distance 0 from itself in every subspace
    for (size_t s = 0; s < subspaces.size(); ++s) {
      if (subspaces[s].size() == 1) {  // one variable: its distances as they are
        counts[s][size_t(i)] = int((distances[size_t(subspaces[s][0])] < eps).count()) - self;
        continue;
      }
      subspace = distances[size_t(subspaces[s][0])];
      for (size_t v = 1; v < subspaces[s].size(); ++v) subspace = subspace.max(distances[size_t(subspaces[s][v])]);
      counts[s][size_t(i)] = int((subspace < eps).count()) - self;
    }
  }
  return counts;
}

}  // namespace milab
