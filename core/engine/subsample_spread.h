#pragma once
// The sampling spread of a reading that trains nothing (KSG reads every row of a finite set at once), by
// subsampling (Holmes & Nemenman, Phys. Rev. E 2019): the N rows, in a seeded order, are split into k disjoint
// parts for k = 2 to 5, each part read alone. The parts are independent tables of N/k rows from the same law, so
// their variance is that of the reading over fresh tables of that size; it falls as 1/n (the estimator's variance
// at these sizes), and the df-weighted mean of var_k x N/k over the splits, divided by N, is the variance at N: the
// spread a repetition of the experiment on fresh rows would give, not a Monte Carlo error. 14 readings of N/2 to
// N/5 rows, about four times the reading itself. Torch-free.
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "engine/size_fit.h"

namespace milab {

struct Batch;

// var_k x n_k for each split's k readings `values` at n_k rows, pooled by their k - 1 degrees of freedom, / rows.
// NaN when no split has two finite readings. `degreesOfFreedom`, when given, receives the pooled count (0 for none).
double subsampledVariance(const std::vector<std::vector<double>>& values, const std::vector<int64_t>& partRows,
                          int64_t rows, double* degreesOfFreedom = nullptr);

struct SubsampledSpread {
  double standardError = std::numeric_limits<double>::quiet_NaN();
  double degreesOfFreedom = std::numeric_limits<double>::quiet_NaN();  // 10 for the five splits
  std::vector<SizeMean> partMeans;  // each split's mean reading at its part size, N/2 to N/5
};

// The standard error of a reading of `rows` (all of a finite set, or a trained critic's held-out part), from `read`
// of its parts as above; parts smaller than kFewestPartRows are not read (NaN when even halves are, or when `read`
// throws for a part: fewer rows than the method needs). The order comes from a generator seeded by `seed` alone.
constexpr int64_t kFewestPartRows = 50;
using PartReader = std::function<double(const Batch&)>;
SubsampledSpread subsampledStandardError(const Batch& rows, int seed, const PartReader& read,
                                         const std::atomic<bool>& cancel);

}  // namespace milab
