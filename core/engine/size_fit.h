#pragma once
// The bias correction of a finite-sample reading by its sizes (the protocol of Abdelaleem, Martini & Nemenman 2025,
// after Strong et al. 1998): the mean reading at N, N/2, N/4 (and more), each the mean over disjoint parts of that
// size, fitted by r(n) = r_inf + a / n and read at n = infinity, with a test of whether the sizes agree with the
// line. Torch-free.
#include <cstdint>
#include <limits>
#include <vector>

namespace milab {

struct SizeMean {
  int64_t rows = 0;  // each part's
  double mean = 0;   // over the parts of that size
};

struct SizeFit {
  double value = std::numeric_limits<double>::quiet_NaN();  // r_inf
  double slope = std::numeric_limits<double>::quiet_NaN();  // a, in nats x rows
  // sigma x sqrt(sum of the intercept's weights squared): each size's mean reads all N rows once, so each has the
  // error `sigma` of the reading at N; taken as independent, which they are not (they share their rows), so the
  // error errs wide.
  double stderror = std::numeric_limits<double>::quiet_NaN();
  // The F test of the residuals against sigma^2 (sizes - 2 and sigmaDf degrees of freedom): small when the sizes
  // bend away from a line in 1/n beyond their noise. NaN with two sizes. Shared rows shrink the residuals, so the
  // test errs towards agreement.
  double consistencyP = std::numeric_limits<double>::quiet_NaN();
};

// Least squares of the means on 1/rows (two sizes at least, else all NaN); `sigma` the error of each mean, with
// `sigmaDf` degrees of freedom (infinite: sigma known, the test a chi-squared one).
SizeFit fitInverseSize(const std::vector<SizeMean>& sizes, double sigma, double sigmaDf);

// Below this consistency p-value a run is flagged inconsistent_sizes (engine/run_diagnostics.h).
constexpr double kInconsistentSizesP = 0.01;

}  // namespace milab
