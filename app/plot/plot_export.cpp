#include "plot/plot_export.h"

#include <QFileInfo>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace milab {

QString exportPlot(QCustomPlot* plot, const QString& path, int width, int height) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  bool ok = false;
  if (suffix == "png") {
    ok = plot->savePng(path, width, height);
  } else if (suffix == "pdf") {
    ok = plot->savePdf(path, width, height);
  } else if (suffix == "svg") {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle("milab plot");
    QCPPainter painter;
    ok = painter.begin(&svg);
    if (ok) {
      plot->toPainter(&painter, width, height);
      ok = painter.end();
    }
  } else {
    return QStringLiteral("%1: unknown plot format '%2' (use png, pdf or svg)").arg(path, suffix);
  }
  return ok ? QString() : QStringLiteral("%1: could not write the plot").arg(path);
}

}  // namespace milab
