#pragma once
// A user's data: a table of numbers read from a CSV file (with or without a header line) or a NumPy .npy/.npz file,
// every cell checked. Qt Core; .npz archives are opened with Debian's libzip.
#include <QString>
#include <QStringList>
#include <QVector>

namespace milab {

struct DataTable {
  int64_t rows = 0, columns = 0;
  QVector<double> values;  // row-major
  QStringList header;      // a CSV's column names, when it has a header line
  double at(int64_t row, int64_t column) const { return values[row * columns + column]; }
};

// The largest magnitude of a cell (see valueProblem in data_table.cpp: the lab computes in 32-bit floats).
constexpr double kMaxDataMagnitude = 1e30;

enum class HeaderMode { Auto, Yes, No };

// The largest file read (bytes): a table of doubles this size already fills a tenth of a 24 GiB machine twice over.
constexpr qint64 kMaxDataFileBytes = qint64(1) << 30;

// Reads `path` by its extension (.npy; .npz: its first array; anything else: CSV with ',', ';', tab or spaces between
// cells, lines starting with '#' skipped). A NumPy array must be 1-d or 2-d, little-endian, of floats or integers.
// Returns
// "" or one line naming the file and, for a bad cell, its line and column (both from 1), e.g.
// "file: 'd.csv' line 7, column 3: 'abc' is not a number".
QString readDataTable(const QString& path, HeaderMode header, DataTable* out);

}  // namespace milab
