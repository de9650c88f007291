#pragma once
// A table of numbers the lab reads as a task's rows (task data): from a file (plugins/tasks/data reads CSV, .npy and
// .npz) or handed over in memory (data/held_tables.h: the Python module's arrays). Qt Core only.
#include <QList>
#include <QStringList>
#include <QVector>
#include <cstdint>
#include <memory>
#include <vector>

namespace milab {

// Columns read in place: `columns` float32 cells a row, row-major, in memory that another owns (the Python module's
// NumPy arrays, so that a float32 array is never copied on its way in); `owner` keeps that memory alive for as long
// as any reader holds the block. The lab only reads it.
struct FloatBlock {
  const float* data = nullptr;
  int64_t columns = 0;
  std::shared_ptr<const void> owner;
};

struct DataTable {
  int64_t rows = 0, columns = 0;
  QVector<double> values;          // row-major: a file's cells (empty when the table is made of blocks)
  std::vector<FloatBlock> blocks;  // or the columns as blocks side by side, each read in place (a held table)
  QStringList header;              // a CSV's column names, when it has a header line
  double at(int64_t row, int64_t column) const;
  // The block whose columns are exactly `columns` in order, or null: such a variable is read in place.
  const FloatBlock* blockOf(const QList<int>& columns) const;
};

// The largest magnitude of a cell (the lab computes in 32-bit floats: a larger one cannot be standardised).
constexpr double kMaxDataMagnitude = 1e30;

// Why one cell cannot be read ("" when it can): not finite, or beyond kMaxDataMagnitude.
QString dataValueProblem(double v);

}  // namespace milab
