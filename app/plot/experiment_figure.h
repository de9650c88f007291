#pragma once
// The figure an experiment's shape calls for, a pure function of its runs (the window's comparison set and the
// runner's grids draw the same ones):
//   several K                 -> estimate against K (log scale), one panel per MI, in the style of the DEMI paper's
//                                Figure 2: mean over seeds with error bars, each method's target, its ceilings;
//   several MI values         -> estimate against the true value of what each method estimates (the diagonal y = x),
//                                one line per method with error bars, each ceiling where it applies;
//   an MI schedule            -> the staircase: one panel per run, a shared y axis, the true MI as a black step line,
//                                the run's ceiling dashed;
//   several tasks             -> a heatmap of estimate - truth, task by method (plot/benchmark_figure.h);
//   only methods (or another non-numeric key) vary -> bars of the estimates, each with its target and ceilings;
//   runs that learn a representation (probe_accuracy) -> probe accuracy against step and final bars
//                                (plot/probe_figure.h).
// Every figure: one shared y range, tick labels that fit at 1200 px, the legend outside the data, only the
// ceilings of the methods shown, every method against its own target, distinguishable series (plot/palette).
#include <QList>
#include <QString>
#include <QVector>

#include "engine/run.h"
#include "results/grid_files.h"

class QCustomPlot;

namespace milab {

struct FigureRun {
  RunSpec spec;
  RunResult result;
  QVector<CurvePoint> curve;  // needed by the staircase and the probe figure only
};

enum class FigureKind { EstimateVsK, EstimateVsTruth, Staircase, Bars, Heatmap, Probe };

FigureKind chooseFigure(const QList<FigureRun>& runs);
// estimate_vs_K, estimate_vs_truth, staircase, estimates, benchmark, probe_accuracy
QString figureFileStem(FigureKind kind);

struct FigureSize {
  int panels = 0;  // 0: nothing could be drawn (the figure says why)
  int width = 1200, height = 560;
};

// Clears `plot` and draws the figure `kind` of `runs` (finished runs; the staircase also draws stopped ones).
FigureSize drawFigure(QCustomPlot* plot, FigureKind kind, const QList<FigureRun>& runs);

// A grid cell as the figures take it; a staircase cell brings its curve, read from OUT/cells/<name>/curve.csv
// (which the cell's worker wrote).
FigureRun figureRunOf(const CellResult& cell, const QString& outDir);

}  // namespace milab
