#include "plot/grid_outputs.h"

#include <qcustomplot.h>

#include <QDir>

#include "plot/grid_plot.h"
#include "plot/plot_export.h"

namespace milab {

QStringList writeGridOutputs(const QString& outDir, const QList<CellResult>& cells) {
  const QDir out(outDir);
  QStringList errors{writeGridCsv(out.filePath("grid.csv"), cells)};
  QCustomPlot plot;
  const int panels = drawGridPlot(&plot, cells);
  for (const char* name : {"estimate_vs_K.png", "estimate_vs_K.pdf", "estimate_vs_K.svg"})
    errors << exportPlot(&plot, out.filePath(name), std::max(900, 420 * panels + 80), 520);
  errors.removeAll(QString());
  return errors;
}

}  // namespace milab
