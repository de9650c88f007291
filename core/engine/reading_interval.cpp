#include "engine/reading_interval.h"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace milab {

double twoSidedQuantile(double level, double df) {
  const double upper = 0.5 + level / 2;
  if (!std::isfinite(df)) return boost::math::quantile(boost::math::normal_distribution<double>(), upper);
  return boost::math::quantile(boost::math::students_t_distribution<double>(df), upper);
}

ReadingInterval readingInterval(double estimate, double se, double df, double level) {
  if (!std::isfinite(se) || se <= 0 || !std::isfinite(estimate)) return {};
  const double half = twoSidedQuantile(level, df) * se;
  return {estimate - half, estimate + half};
}

}  // namespace milab
