#include "plot/experiment_figure.h"

#include <qcustomplot.h>

#include <QDir>
#include <QSet>

#include "engine/run_set.h"
#include "plot/benchmark_figure.h"
#include "plot/figure_parts.h"
#include "plot/probe_figure.h"
#include "plot/series_figures.h"
#include "results/run_files.h"

namespace milab {

using namespace figure;

FigureKind chooseFigure(const QList<FigureRun>& runs) {
  QSet<double> ks, mis;
  QSet<QString> tasks;
  // A staircase is drawn as one, whatever the tasks: each panel follows its own run's levels and targets
  // (beyond-log-k runs DEMI on gaussian3 beside the others on gaussian2, at the same total MI per level).
  if (hasProbeReadings(runs)) return FigureKind::Probe;  // what these runs are read by is their probe
  for (const FigureRun& r : runs)
    if (!r.result.levels.isEmpty()) return FigureKind::Staircase;
  for (const FigureRun& r : runs) tasks << r.spec.task;
  if (tasks.size() > 1) return FigureKind::Heatmap;
  for (const FigureRun& r : runs) {
    if (!isFinished(r)) continue;
    if (kOf(r) > 0) ks << kOf(r);
    mis << numberOf(r.spec, "mi");
  }
  if (ks.size() > 1) return FigureKind::EstimateVsK;
  if (mis.size() > 1) return FigureKind::EstimateVsTruth;
  return FigureKind::Bars;
}

QString figureFileStem(FigureKind kind) {
  switch (kind) {
    case FigureKind::EstimateVsK:
      return "estimate_vs_K";
    case FigureKind::EstimateVsTruth:
      return "estimate_vs_truth";
    case FigureKind::Staircase:
      return "staircase";
    case FigureKind::Bars:
      return "estimates";
    case FigureKind::Heatmap:
      return "benchmark";
    case FigureKind::Probe:
      return "probe_accuracy";
  }
  return {};
}

FigureSize drawFigure(QCustomPlot* plot, FigureKind kind, const QList<FigureRun>& runs) {
  plot->clearPlottables();
  plot->clearItems();
  plot->plotLayout()->clear();  // also deletes the default legend; each figure builds its own
  plot->setAutoAddPlottableToLegend(false);
  QList<const FigureRun*> shown;
  QList<RunSpec> specs;
  for (const FigureRun& r : runs) {
    const bool drawable = kind == FigureKind::Staircase ? !r.curve.isEmpty() && !r.result.levels.isEmpty()
                          : kind == FigureKind::Probe   ? hasProbeReadings({r})
                          // A benchmark draws its failed runs too (the heatmap's "failed" and "*"), never drops them.
                          : kind == FigureKind::Heatmap
                              ? isFinished(r) || r.result.status == RunStatus::Failed
                              : isFinished(r) && (kind != FigureKind::EstimateVsK || kOf(r) > 0);
    if (!drawable) continue;
    shown << &r;
    specs << r.spec;
  }
  if (shown.isEmpty())
    return drawNothing(plot, kind == FigureKind::Staircase ? "no staircase run with training points yet"
                                                           : "no finished run to draw yet");
  const LabelKeys differing = labelKeysByMethod(specs);
  FigureSize size;
  switch (kind) {
    case FigureKind::EstimateVsK:
      size = drawVsK(plot, shown, differing);
      break;
    case FigureKind::EstimateVsTruth:
      size = drawVsTruth(plot, shown, differing);
      break;
    case FigureKind::Staircase:
      size = drawStaircase(plot, shown, differing);
      break;
    case FigureKind::Bars:
      size = drawBars(plot, shown, differing);
      break;
    case FigureKind::Heatmap:
      size = drawBenchmarkHeatmap(plot, shown);
      break;
    case FigureKind::Probe:
      size = drawProbeFigure(plot, shown, differing);
      break;
  }
  plot->replot();
  return size;
}

FigureRun figureRunOf(const CellResult& c, const QString& outDir) {
  FigureRun run{c.cell.spec, c.result, {}};
  if (!c.result.levels.isEmpty() || !c.result.readings.isEmpty())
    run.curve = readCurveCsv(QDir(outDir).filePath("cells/" + c.cell.name + "/curve.csv"));
  return run;
}

}  // namespace milab