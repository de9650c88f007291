#pragma once
// KSG's neighbour counts without a tree: each point's max-norm distances to every other point, per variable, as
// column operations on column-major copies (vectorised by Eigen) in blocks of rows, its k-th nearest in the joint
// space by one scan that keeps the k best (nth_element for k above 32), and its counts in each subspace from the
// same distances. O(N^2 d) time and O(N d) memory. Where the tree's search radius (sqrt(d) times the max-norm one,
// knn/ksg.cpp) covers most points anyway, from about 6 joint dimensions up, this is faster (bench_ksg:
// docs/speed.md, "KSG"); with many points in few dimensions the trees are.
#include <vector>

#include "knn/ksg.h"

namespace milab {

// For every point i: eps_i, the max-norm distance to its k-th nearest other point over all `variables` side by
// side, then for each subspace (indices into `variables`) the number of other points strictly within eps_i there.
// Returns counts[subspace][i]. Polls `cancelled` before each point.
std::vector<std::vector<int>> everyPairNeighbourCounts(const std::vector<const SampleMatrix*>& variables,
                                                       const std::vector<std::vector<int>>& subspaces, int k,
                                                       const CancelCheck& cancelled);

}  // namespace milab
