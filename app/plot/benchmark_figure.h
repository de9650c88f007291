#pragma once
// A grid whose task varies (the Beyond-Normal preset): a heatmap of each method's error, estimate minus truth
// (mean over seeds), one row per task with its truth in the label, one column per method; and the summary a
// benchmark paper prints: each method's mean absolute error, how many tasks it read within 10% of the truth (or 0.1
// nats, whichever is larger), how many it "solved" (mean estimate within a factor 1.5 of the truth, the rule of Czyz
// et al. 2023, cbg-ethz/bmi), and its failed runs, counted and drawn rather than dropped.
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include "plot/experiment_figure.h"

class QCustomPlot;

namespace milab {

struct BenchmarkRow {
  QString method;
  int tasks = 0;  // tasks with a finished reading and a known truth
  double meanAbsError = 0;
  int withinTolerance = 0;  // |estimate - truth| <= max(0.1 nats, 10% of the truth)
  int solved = 0;           // truth / 1.5 <= estimate <= 1.5 truth (the mean over seeds)
  int failedRuns = 0;       // runs that ended failed (diverged, implausible, an error): no reading
  int tasksWithoutReading = 0;  // tasks where every run of the method failed: outside the mean absolute error
};

// One row per method, in the order the methods first appear.
QList<BenchmarkRow> benchmarkSummary(const QList<FigureRun>& runs);
QString benchmarkCsv(const QList<BenchmarkRow>& rows);

// The error at which a cell takes its full colour (blue low, red high), the same for every heatmap.
inline constexpr double kHeatmapReachNats = 2.0;
FigureSize drawBenchmarkHeatmap(QCustomPlot* plot, const QList<const FigureRun*>& runs);

// The runs a heatmap cell averages, as figureRunKey names them: those of the cell under `pixel` of a plot the
// heatmap was drawn in, empty elsewhere (the window opens them on a click, issue 79).
QStringList heatmapRunsAt(QCustomPlot* plot, const QPointF& pixel);
// A run's identity within a figure: its experiment, flat, as compact JSON.
QString figureRunKey(const RunSpec& spec);

}  // namespace milab
