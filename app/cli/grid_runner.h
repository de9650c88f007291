#pragma once
// Runs a grid from the command line through GridScheduler (cells `jobs` at a time, each written as it ends,
// finished ones reused), printing a line per cell; at the end OUT/grid.csv and the figure its shape calls for.
#include <QList>
#include <QString>
#include <atomic>

#include "engine/experiment.h"

namespace milab {

class MethodRegistry;

// Returns the CLI's exit code: 0, 1 (a cell failed; everything else written), 130 (interrupted).
// `historyPath`: the run history each cell is recorded in ("" for none).
int runGrid(const QList<GridCell>& cells, const QString& outDir, int jobs, const MethodRegistry& registry,
            const QString& historyPath, const std::atomic<bool>& interrupted);

}  // namespace milab
