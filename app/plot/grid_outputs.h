#pragma once
// A grid's closing files, the same from the window and the runner: OUT/grid.csv (one row per cell) and
// OUT/estimate_vs_K.{png,pdf,svg}.
#include <QList>
#include <QString>
#include <QStringList>

#include "results/grid_files.h"

namespace milab {

QStringList writeGridOutputs(const QString& outDir, const QList<CellResult>& cells);  // error lines, or none

}  // namespace milab
