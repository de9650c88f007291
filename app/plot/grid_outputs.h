#pragma once
// A grid's closing files, the same from the window and the runner: OUT/grid.csv (one row per cell) and the
// figure its shape calls for (plot/experiment_figure.h): OUT/<estimate_vs_K|estimate_vs_truth|staircase|
// estimates>.{png,pdf,svg}; a staircase also writes OUT/staircase.csv (one row per run and level).
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>

#include "plot/experiment_figure.h"
#include "results/grid_files.h"

namespace milab {

// Error lines, or none. `stopped` (may be empty) is asked before each cell's curve is read and before each figure
// file: once it says true, the figures not yet written are skipped with one line saying so (grid.csv, the data,
// comes first and is always written). A figure of an 80-cell grid takes seconds: a signal must not wait for it.
using StopCheck = std::function<bool()>;
QStringList writeGridOutputs(const QString& outDir, const QList<CellResult>& cells, const StopCheck& stopped = {});

// The figure and, for a staircase, staircase.csv of a set of runs, into `outDir`. `labels[i]` names runs[i].
QStringList writeFigureFiles(const QString& outDir, const QList<FigureRun>& runs, const QStringList& labels,
                             const StopCheck& stopped = {});

}  // namespace milab
