// A number as a CSV cell: ten significant digits, and an empty cell for what is not finite (a dataset's unknown
// truth, a reading a run never made), so a spreadsheet reads a gap rather than "nan".
#pragma once

#include <QString>
#include <cmath>

namespace milab {

inline QString csvCell(double v) { return std::isfinite(v) ? QString::number(v, 'g', 10) : QString(); }

}  // namespace milab
