#pragma once
// What bmi reads NWJ and DV from on a whole held-out part (cbg-ethz/bmi, _backend_linear_memory.py: the joint pairs'
// mean and logmeanexp_nodiag): the mean score of the n joint pairs (x_i, y_i) and the log of the mean of e^s over
// all n (n - 1) off-diagonal pairs (x_i, y_j), i != j. The score matrix is asked for a block of rows at a time and
// summed in double, so that memory stays linear in n (2,500 x 2,500 pairs at bmi's N = 5,000).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>

namespace milab {

struct EveryPairScores {
  double jointMean = 0;           // (1/n) sum_i s_ii
  double logMeanExpMarginal = 0;  // log((1/(n(n-1))) sum_{i != j} e^{s_ij})
};

// rows(first, count): the scores [count, n] of x rows first..first+count-1 against every y row. n >= 2.
using ScoreRows = std::function<at::Tensor(int64_t first, int64_t count)>;
EveryPairScores everyPairScores(int64_t n, const ScoreRows& rows, int64_t rowsPerBlock);
// The rows of a block that holds about 2^20 scores (4 MiB of floats) whatever n is.
int64_t everyPairBlockRows(int64_t n);

// The two bounds from those sums, as bmi writes them: NWJ E_joint[s] - e^{-1} E_marginals[e^s], DV
// E_joint[s] - log E_marginals[e^s].
double nwjOfEveryPair(const EveryPairScores& s);
double dvOfEveryPair(const EveryPairScores& s);

}  // namespace milab
