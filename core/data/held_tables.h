#pragma once
// Tables held in memory under a name that task data's `file` key takes ("memory:1"), so that a front end without
// files (the Python module, app/python) hands the lab its arrays and the run reads them exactly as it reads a file of
// the same numbers: the same validation, standardisation, splits and seeds as `milab-cli run --task data`.
// Process-wide and thread-safe; a table stays held until released (a run holds its own reference meanwhile).
#include <QString>
#include <memory>

#include "data/data_table.h"

namespace milab {

inline const QString kHeldTablePrefix = QStringLiteral("memory:");

// Holds `table` (every cell already checked) and returns the `file` value that names it.
QString holdTable(std::shared_ptr<const DataTable> table);
// Forgets the name; runs that read the table keep their copy of the pointer.
void releaseTable(const QString& file);
// The table `file` names, or null when it names none (released, or never held).
std::shared_ptr<const DataTable> heldTable(const QString& file);
inline bool namesHeldTable(const QString& file) { return file.startsWith(kHeldTablePrefix); }

}  // namespace milab
