#include "data/data_table.h"

#include <cmath>

namespace milab {

// Runs compute in 32-bit floats (at most 3.4e38), and a column's sums over up to 10^8 rows must stay finite there:
// 1e30 leaves that room. Larger values would standardise to infinities and NaNs that no estimator can read (KSG
// crashed on them), so they are refused here, by name.
QString dataValueProblem(double v) {
  if (!std::isfinite(v)) return QStringLiteral("is not a finite number");
  if (std::abs(v) > kMaxDataMagnitude)
    return QStringLiteral(
        "is beyond +-1e30, more than the lab's 32-bit arithmetic can standardise (rescale the column)");
  return {};
}

}  // namespace milab
