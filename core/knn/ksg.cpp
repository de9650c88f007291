#include "knn/ksg.h"

#include <ATen/ATen.h>
#include <nanoflann.hpp>

#include <algorithm>
#include <limits>
#include <queue>
#include <stdexcept>
#include <vector>

#include "knn/ksg_every_pair.h"
#include "method/estimator.h"

namespace milab {

namespace {

// nanoflann reads points through this adaptor: the rows of a row-major matrix, not copied. Building a tree is one
// call, long at 10^5 points and more (docs/speed.md, "KSG"), that reads every point a few dozen times, so the reads
// poll `cancelled` (every 2^16 of them, a fraction of a millisecond) and throw EstimatorCancelled out of
// the build or a search; nanoflann keeps its nodes in a pool that its destructor frees.
struct Cloud {
  const SampleMatrix& m;
  const CancelCheck& cancelled;
  mutable size_t reads = 0;
  size_t kdtree_get_point_count() const { return size_t(m.rows()); }
  double kdtree_get_pt(size_t i, size_t d) const {
    if ((++reads & 0xFFFF) == 0 && cancelled && cancelled()) throw EstimatorCancelled();
    return m(Eigen::Index(i), Eigen::Index(d));
  }
  template <class Box>
  bool kdtree_get_bbox(Box&) const {
    return false;
  }
};
using EuclideanTree =
    nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<double, Cloud>, Cloud, -1, size_t>;

double maxNorm(const SampleMatrix& m, Eigen::Index a, Eigen::Index b) {
  return (m.row(a) - m.row(b)).cwiseAbs().maxCoeff();
}

// nanoflann's pruning adds per-dimension distances, which is exact for Euclidean and L1 metrics but not for the
// max norm (a sum overestimates a max, and would prune cells that hold neighbours). So the tree is Euclidean and
// the result sets below speak max norm: ||v||_inf <= ||v||_2 <= sqrt(d) ||v||_inf, hence every point within
// max-norm radius r lies within squared Euclidean radius d r^2, which is the radius the tree is told to search;
// each point it visits is then measured in the max norm. The result is exact; the tree only skips far cells.
constexpr double kRoundingSlack = 1 + 1e-9;  // the tree's sum of squares may round past d r^2 by an ulp or so

// The k nearest other points of `self` in the max norm; worstDist shrinks as better ones are found.
class MaxNormNearest {
 public:
  MaxNormNearest(const SampleMatrix& m, Eigen::Index self, int k) : m_(m), self_(self), k_(size_t(k)) {}
  bool full() const { return best_.size() == k_; }
  double worstDist() const {
    if (!full()) return std::numeric_limits<double>::max();
    return double(m_.cols()) * best_.top() * best_.top() * kRoundingSlack;
  }
  bool addPoint(double, size_t index) {
    if (Eigen::Index(index) == self_) return true;
    const double d = maxNorm(m_, self_, Eigen::Index(index));
    if (!full()) {
      best_.push(d);
    } else if (d < best_.top()) {
      best_.pop();
      best_.push(d);
    }
    return true;
  }
  double kthDistance() const { return best_.top(); }

 private:
  const SampleMatrix& m_;
  Eigen::Index self_;
  size_t k_;
  std::priority_queue<double> best_;  // a max-heap of the k best so far
};

// How many other points lie strictly within max-norm distance eps of `self`.
class MaxNormCount {
 public:
  MaxNormCount(const SampleMatrix& m, Eigen::Index self, double eps) : m_(m), self_(self), eps_(eps) {}
  bool full() const { return true; }
  double worstDist() const { return double(m_.cols()) * eps_ * eps_ * kRoundingSlack; }
  bool addPoint(double, size_t index) {
    if (Eigen::Index(index) != self_ && maxNorm(m_, self_, Eigen::Index(index)) < eps_) ++count_;
    return true;
  }
  int count() const { return count_; }

 private:
  const SampleMatrix& m_;
  Eigen::Index self_;
  double eps_;
  int count_ = 0;
};

// A sample set with its tree, for the joint space or one subspace.
class Space {
 public:
  Space(SampleMatrix points, const CancelCheck& cancelled)
      : points_(std::move(points)), cloud_{points_, cancelled}, tree_(int(points_.cols()), cloud_, {10}) {}  // builds it
  double kthDistance(Eigen::Index i, int k) const {
    MaxNormNearest result(points_, i, k);
    tree_.findNeighbors(result, points_.row(i).data(), nanoflann::SearchParams());
    return result.kthDistance();
  }
  int countWithin(Eigen::Index i, double eps) const {
    MaxNormCount result(points_, i, eps);
    tree_.findNeighbors(result, points_.row(i).data(), nanoflann::SearchParams());
    return result.count();
  }

 private:
  SampleMatrix points_;
  Cloud cloud_;
  EuclideanTree tree_;
};

// The parts side by side. Copied in blocks of rows with a poll between them: a fresh 300,000 x 10 matrix is slow to
// fill, most of it the first touch of its pages (docs/speed.md, "KSG").
SampleMatrix columns(std::initializer_list<const SampleMatrix*> parts, const CancelCheck& cancelled = {}) {
  constexpr Eigen::Index kRowsPerPoll = 16384;
  Eigen::Index cols = 0;
  for (const SampleMatrix* p : parts) cols += p->cols();
  const Eigen::Index rows = (*parts.begin())->rows();
  SampleMatrix out(rows, cols);
  for (Eigen::Index first = 0; first < rows; first += kRowsPerPoll) {
    if (cancelled && cancelled()) throw EstimatorCancelled();
    const Eigen::Index n = std::min(kRowsPerPoll, rows - first);
    Eigen::Index at = 0;
    for (const SampleMatrix* p : parts) {
      out.block(first, at, n, p->cols()) = p->middleRows(first, n);
      at += p->cols();
    }
  }
  return out;
}

// psi from LibTorch (already linked): the mean of psi(v) over a vector, and psi of one value.
double meanDigamma(const std::vector<double>& v) {
  return at::digamma(at::tensor(v, at::kDouble)).mean().item<double>();
}
double digamma(double v) { return meanDigamma({v}); }

void checkSamples(const SampleMatrix& x, const SampleMatrix& y, int k) {
  if (x.rows() != y.rows()) throw std::invalid_argument("ksg: x and y must have as many samples");
  if (k < 1 || k >= x.rows()) throw std::invalid_argument("ksg: k must be in [1, samples - 1]");
  // A NaN or an infinity has no neighbours: the trees' searches would read past their buffers.
  if (!x.allFinite() || !y.allFinite()) throw std::invalid_argument("ksg: the samples hold a NaN or an infinity");
}

// Automatic's choice, from bench_ksg (docs/speed.md, "KSG"): below 6 joint dimensions the trees are taken at any
// size (every pair is at most a little faster there, and far slower with many points); from 6 up every pair wins
// (the trees' search radius covers most points), except that its lead shrinks as the points grow in 6 to 15
// dimensions, where the trees keep the larger sets.
constexpr Eigen::Index kEveryPairMinDims = 6, kEveryPairFromTenDims = 10, kEveryPairAtAnySizeDims = 16;
constexpr Eigen::Index kEveryPairMaxPointsBelowTenDims = 10000, kEveryPairMaxPointsBelowSixteenDims = 20000;

bool usesEveryPair(NeighbourSearch search, Eigen::Index points, Eigen::Index jointDims) {
  if (search == NeighbourSearch::Automatic) return ksgPrefersEveryPair(points, jointDims);
  return search == NeighbourSearch::EveryPair;
}

void pollCancel(const CancelCheck& cancelled, Eigen::Index i) {
  if (cancelled && i % 256 == 0 && cancelled()) throw EstimatorCancelled();
}

}  // namespace

bool ksgPrefersEveryPair(Eigen::Index points, Eigen::Index jointDims) {
  if (jointDims < kEveryPairMinDims) return false;
  if (jointDims < kEveryPairFromTenDims) return points <= kEveryPairMaxPointsBelowTenDims;
  if (jointDims < kEveryPairAtAnySizeDims) return points <= kEveryPairMaxPointsBelowSixteenDims;
  return true;
}

double ksgMutualInformation(const SampleMatrix& x, const SampleMatrix& y, int k, const CancelCheck& cancelled,
                            NeighbourSearch search) {
  checkSamples(x, y, k);
  if (usesEveryPair(search, x.rows(), x.cols() + y.cols())) {
    const auto counts = everyPairNeighbourCounts({&x, &y}, {{0}, {1}}, k, cancelled);
    std::vector<double> plusOne;  // n_x + 1 and n_y + 1 of every point
    plusOne.reserve(2 * size_t(x.rows()));
    for (size_t i = 0; i < size_t(x.rows()); ++i)
      plusOne.insert(plusOne.end(), {counts[0][i] + 1.0, counts[1][i] + 1.0});
    return digamma(k) + digamma(double(x.rows())) - 2.0 * meanDigamma(plusOne);
  }
  const Space joint(columns({&x, &y}, cancelled), cancelled);  // each build polls cancel as it reads the points
  const Space xs(x, cancelled);
  const Space ys(y, cancelled);
  std::vector<double> counts;  // n_x + 1 and n_y + 1 of every point
  counts.reserve(2 * size_t(x.rows()));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    pollCancel(cancelled, i);
    const double eps = joint.kthDistance(i, k);
    counts.push_back(xs.countWithin(i, eps) + 1);
    counts.push_back(ys.countWithin(i, eps) + 1);
  }
  return digamma(k) + digamma(double(x.rows())) - 2.0 * meanDigamma(counts);
}

double ksgConditionalMutualInformation(const SampleMatrix& x, const SampleMatrix& y, const SampleMatrix& z, int k,
                                       const CancelCheck& cancelled, NeighbourSearch search) {
  checkSamples(x, y, k);
  checkSamples(x, z, k);
  if (usesEveryPair(search, x.rows(), x.cols() + y.cols() + z.cols())) {
    const auto counts = everyPairNeighbourCounts({&x, &y, &z}, {{0, 2}, {1, 2}, {2}}, k, cancelled);
    std::vector<double> conditioned, shared;  // n_xz + 1 and n_yz + 1; n_z + 1
    for (size_t i = 0; i < size_t(x.rows()); ++i) {
      conditioned.insert(conditioned.end(), {counts[0][i] + 1.0, counts[1][i] + 1.0});
      shared.push_back(counts[2][i] + 1.0);
    }
    return digamma(k) - 2.0 * meanDigamma(conditioned) + meanDigamma(shared);
  }
  const Space joint(columns({&x, &y, &z}, cancelled), cancelled);
  const Space xz(columns({&x, &z}, cancelled), cancelled);
  const Space yz(columns({&y, &z}, cancelled), cancelled);
  const Space zs(z, cancelled);
  std::vector<double> conditioned, shared;  // n_xz + 1 and n_yz + 1; n_z + 1
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    pollCancel(cancelled, i);
    const double eps = joint.kthDistance(i, k);
    conditioned.push_back(xz.countWithin(i, eps) + 1);
    conditioned.push_back(yz.countWithin(i, eps) + 1);
    shared.push_back(zs.countWithin(i, eps) + 1);
  }
  return digamma(k) - 2.0 * meanDigamma(conditioned) + meanDigamma(shared);
}

double ksgMutualInformationBruteForce(const SampleMatrix& x, const SampleMatrix& y, int k) {
  checkSamples(x, y, k);
  const SampleMatrix joint = columns({&x, &y});
  const Eigen::Index n = x.rows();
  std::vector<double> counts;
  for (Eigen::Index i = 0; i < n; ++i) {
    std::vector<double> d;
    for (Eigen::Index j = 0; j < n; ++j)
      if (j != i) d.push_back(maxNorm(joint, i, j));
    std::nth_element(d.begin(), d.begin() + (k - 1), d.end());
    const double eps = d[size_t(k - 1)];
    int nx = 0, ny = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (j == i) continue;
      nx += maxNorm(x, i, j) < eps;
      ny += maxNorm(y, i, j) < eps;
    }
    counts.push_back(nx + 1);
    counts.push_back(ny + 1);
  }
  return digamma(k) + digamma(double(n)) - 2.0 * meanDigamma(counts);
}

}  // namespace milab
