#pragma once
// The confidence interval of a finite-sample reading, from its standard error over fresh tables and that error's
// degrees of freedom: estimate +- t(df) x SE at the asked level (Student's t: the error is itself estimated from a
// few subsampled parts, engine/subsample_spread.h), the normal quantile when df is unknown. Torch-free.
#include <limits>

namespace milab {

struct ReadingInterval {
  double low = std::numeric_limits<double>::quiet_NaN();
  double high = std::numeric_limits<double>::quiet_NaN();
};

// The two-sided quantile t(df) with P(|T| <= t) = level (Boost.Math's Student's t; the normal's for df NaN or
// infinite). level in (0, 1), df > 0.
double twoSidedQuantile(double level, double df);

// estimate +- twoSidedQuantile(level, df) x se; NaN ends when se is not finite and positive.
ReadingInterval readingInterval(double estimate, double se, double df, double level);

}  // namespace milab
