#pragma once
// A test of independence beside a finite-sample reading, with no retraining. The final network never saw the
// held-out part, so under independence its reading of the held-out pairs (x_i, y_i) and its readings of the same
// rows with the ys permuted, (x_i, y_perm(i)), are exchangeable: the share of permuted readings at or above the
// one observed is an exact p-value (Phipson & Smyth's (1 + b) / (1 + P)). A method that trains nothing (KSG) reads
// every row, permuted the same way (NPEET's shuffle_test). The permuted readings' mean and spread are what "no
// dependence" reads on these rows. Torch-free.
#include <atomic>
#include <limits>

namespace milab {

class TrainingSession;

struct IndependenceTest {
  double pValue = std::numeric_limits<double>::quiet_NaN();
  int permutations = 0;  // finite permuted readings taken (a cancel or a non-finite reading leaves fewer)
  double permutedMean = std::numeric_limits<double>::quiet_NaN();
  double permutedSd = std::numeric_limits<double>::quiet_NaN();  // their standard deviation (NaN for one)
};

// p = (1 + #{permuted >= observed}) / (1 + n) over n finite readings (NaN for none). twoSided: the same count of
// the distances |r - m| from the median m of all n + 1 readings (observed and permuted), a symmetric function of
// them, so that the distances stay exchangeable under independence and the p-value exact.
double permutationPValue(double observed, const double* permuted, int n, bool twoSided = false);

// `observed`: the final network's reading of the session's held-out part (trains) or of all rows (not). The
// permutations come from a generator of their own seeded by `seed`; each reading is taken the way `observed` was
// (whole or in batches) on the reading stream (engine/reading_stream.h), so training is not moved.
// twoSided: MethodInfo::testsBothSides.
IndependenceTest permutationTest(TrainingSession& session, bool trains, bool whole, bool twoSided, double observed,
                                 int permutations, int seed, const std::atomic<bool>& cancel);

}  // namespace milab
