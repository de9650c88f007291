#pragma once
// A table of numbers the lab reads as a task's rows (task data): from a file (plugins/tasks/data reads CSV, .npy and
// .npz) or handed over in memory (data/held_tables.h: the Python module's arrays). Qt Core only.
#include <QStringList>
#include <QVector>
#include <cstdint>

namespace milab {

struct DataTable {
  int64_t rows = 0, columns = 0;
  QVector<double> values;  // row-major
  QStringList header;      // a CSV's column names, when it has a header line
  double at(int64_t row, int64_t column) const { return values[row * columns + column]; }
};

// The largest magnitude of a cell (the lab computes in 32-bit floats: a larger one cannot be standardised).
constexpr double kMaxDataMagnitude = 1e30;

// Why one cell cannot be read ("" when it can): not finite, or beyond kMaxDataMagnitude.
QString dataValueProblem(double v);

}  // namespace milab
