#pragma once
// A grid's closing files, the same from the window and the runner: OUT/grid.csv (one row per cell) and the
// figure its shape calls for (plot/experiment_figure.h): OUT/<estimate_vs_K|estimate_vs_truth|staircase|
// estimates>.{png,pdf,svg}; a staircase also writes OUT/staircase.csv (one row per run and level).
#include <QList>
#include <QString>
#include <QStringList>

#include "plot/experiment_figure.h"
#include "results/grid_files.h"

namespace milab {

QStringList writeGridOutputs(const QString& outDir, const QList<CellResult>& cells);  // error lines, or none

// The figure and, for a staircase, staircase.csv of a set of runs, into `outDir`. `labels[i]` names runs[i].
QStringList writeFigureFiles(const QString& outDir, const QList<FigureRun>& runs, const QStringList& labels);

}  // namespace milab
