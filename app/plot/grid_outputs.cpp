#include "plot/grid_outputs.h"

#include <qcustomplot.h>

#include <QDir>

#include "plot/benchmark_figure.h"
#include "plot/plot_export.h"
#include "results/run_files.h"

namespace milab {

namespace {
QString figuresSkipped(const QString& outDir) {
  return QStringLiteral("%1: figure files not written: stopped by a signal (the same command again draws them)")
      .arg(outDir);
}
}  // namespace

QStringList writeFigureFiles(const QString& outDir, const QList<FigureRun>& runs, const QStringList& labels,
                             const StopCheck& stopped) {
  const QDir out(outDir);
  QStringList errors;
  const FigureKind kind = chooseFigure(runs);
  if (kind == FigureKind::Staircase) {
    QList<RunResult> results;
    for (const FigureRun& r : runs) results << r.result;
    errors << writeStaircaseCsv(out.filePath("staircase.csv"), labels, results);
  }
  if (kind == FigureKind::Heatmap)  // a benchmark over tasks: each method's mean absolute error, tasks within 10%
    errors << saveAtomically(out.filePath("benchmark.csv"), benchmarkCsv(benchmarkSummary(runs)).toUtf8());
  QCustomPlot plot;
  const FigureSize size = drawFigure(&plot, kind, runs);
  for (const char* suffix : {".png", ".pdf", ".svg"}) {
    if (stopped && stopped()) {
      errors << figuresSkipped(outDir);
      break;
    }
    errors << exportPlot(&plot, out.filePath(figureFileStem(kind) + suffix), size.width, size.height);
  }
  errors.removeAll(QString());
  return errors;
}

QStringList writeGridOutputs(const QString& outDir, const QList<CellResult>& cells, const StopCheck& stopped) {
  const QDir out(outDir);
  QStringList errors{writeGridCsv(out.filePath("grid.csv"), cells)};
  QList<FigureRun> runs;
  QStringList labels;
  for (const CellResult& c : cells) {
    if (stopped && stopped()) {  // reading 80 cells' curves back takes a while on a slow disk
      errors << figuresSkipped(outDir);
      errors.removeAll(QString());
      return errors;
    }
    runs << figureRunOf(c, outDir);
    labels << c.cell.name;
  }
  errors << writeFigureFiles(outDir, runs, labels, stopped);
  errors.removeAll(QString());
  return errors;
}

}  // namespace milab
