#include "plot/grid_outputs.h"

#include <qcustomplot.h>

#include <QDir>

#include "plot/plot_export.h"
#include "results/run_files.h"

namespace milab {

QStringList writeFigureFiles(const QString& outDir, const QList<FigureRun>& runs, const QStringList& labels) {
  const QDir out(outDir);
  QStringList errors;
  const FigureKind kind = chooseFigure(runs);
  if (kind == FigureKind::Staircase) {
    QList<RunResult> results;
    for (const FigureRun& r : runs) results << r.result;
    errors << writeStaircaseCsv(out.filePath("staircase.csv"), labels, results);
  }
  QCustomPlot plot;
  const FigureSize size = drawFigure(&plot, kind, runs);
  for (const char* suffix : {".png", ".pdf", ".svg"})
    errors << exportPlot(&plot, out.filePath(figureFileStem(kind) + suffix), size.width, size.height);
  errors.removeAll(QString());
  return errors;
}

QStringList writeGridOutputs(const QString& outDir, const QList<CellResult>& cells) {
  const QDir out(outDir);
  QStringList errors{writeGridCsv(out.filePath("grid.csv"), cells)};
  QList<FigureRun> runs;
  QStringList labels;
  for (const CellResult& c : cells) {
    runs << figureRunOf(c, outDir);
    labels << c.cell.name;
  }
  errors << writeFigureFiles(outDir, runs, labels);
  errors.removeAll(QString());
  return errors;
}

}  // namespace milab
