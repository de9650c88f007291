#include "data/data_table.h"

#include <cmath>
#include <stdexcept>

namespace milab {

double DataTable::at(int64_t row, int64_t column) const {
  if (blocks.empty()) return values[row * columns + column];
  for (const FloatBlock& b : blocks) {
    if (column < b.columns) return b.data[row * b.columns + column];
    column -= b.columns;
  }
  throw std::out_of_range("DataTable::at: column past the table's last (validate checks every index)");
}

const FloatBlock* DataTable::blockOf(const QList<int>& wanted) const {
  int64_t first = 0;
  for (const FloatBlock& b : blocks) {
    bool same = wanted.size() == b.columns;
    for (int i = 0; same && i < wanted.size(); ++i) same = wanted[i] == first + i;
    if (same) return &b;
    first += b.columns;
  }
  return nullptr;
}

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
