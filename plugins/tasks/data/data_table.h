#pragma once
// A user's data: a table of numbers read from a CSV file (with or without a header line) or a NumPy .npy/.npz file,
// every cell checked. Qt Core; .npz archives are opened with Debian's libzip.
#include <QString>

#include "data/data_table.h"

namespace milab {

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
