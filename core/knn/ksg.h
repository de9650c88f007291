#pragma once
// Kraskov-Stoegbauer-Grassberger estimators of mutual information from samples (Kraskov et al., 2004,
// algorithm 1) and its conditional form (Frenzel & Pompe, 2007), in the max-norm, on nanoflann k-d trees or by
// every pair at once (knn/ksg_every_pair.h), whichever is faster for the shape; both give the same counts.
//   I(X;Y)   = psi(k) + psi(N) - < psi(n_x + 1) + psi(n_y + 1) >
//   I(X;Y|Z) = psi(k) - < psi(n_xz + 1) + psi(n_yz + 1) - psi(n_z + 1) >
// where eps_i is the max-norm distance from point i to its k-th neighbour in the joint space and n_s counts the
// other points strictly within eps_i in the subspace s. Samples are rows (N x d, row-major).
#include <Eigen/Core>

#include <functional>

namespace milab {

using SampleMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Polled at least every few hundred points; when it returns true the estimator throws EstimatorCancelled.
using CancelCheck = std::function<bool()>;

// How the neighbours are found. Automatic: every pair from 6 joint dimensions up, to a number of points that grows
// with them (ksgPrefersEveryPair), else the trees. Tests name one to check both.
enum class NeighbourSearch { Automatic, Trees, EveryPair };

double ksgMutualInformation(const SampleMatrix& x, const SampleMatrix& y, int k, const CancelCheck& cancelled = {},
                            NeighbourSearch search = NeighbourSearch::Automatic);
double ksgConditionalMutualInformation(const SampleMatrix& x, const SampleMatrix& y, const SampleMatrix& z, int k,
                                       const CancelCheck& cancelled = {},
                                       NeighbourSearch search = NeighbourSearch::Automatic);

// What Automatic picks for `points` rows of `jointDims` columns in all.
bool ksgPrefersEveryPair(Eigen::Index points, Eigen::Index jointDims);

// The same by brute force over every pair (O(N^2 d)): the reference the tree search is tested against.
double ksgMutualInformationBruteForce(const SampleMatrix& x, const SampleMatrix& y, int k);

}  // namespace milab
