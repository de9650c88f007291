#include "plot/plot_export.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include "results/run_files.h"

namespace milab {

namespace {

// Draws the plot at width x height on any paint device through QCustomPlot's own vector path.
bool drawOn(QPaintDevice* device, QCustomPlot* plot, int width, int height) {
  QCPPainter painter;
  if (!painter.begin(device)) return false;
  painter.setMode(QCPPainter::pmVectorized);
  painter.setWindow(0, 0, width, height);  // plot pixels onto the whole page, whatever the device's resolution
  plot->toPainter(&painter, width, height);
  return painter.end();
}

bool renderPng(QCustomPlot* plot, int width, int height, QBuffer* out) {
  QImage image = plot->toPixmap(width, height, 1.0).toImage();
  const int dotsPerMeter = qRound(96 / 0.0254);  // 96 dpi, as QCustomPlot::savePng records
  image.setDotsPerMeterX(dotsPerMeter);
  image.setDotsPerMeterY(dotsPerMeter);
  return !image.isNull() && image.save(out, "PNG");
}

bool renderPdf(QCustomPlot* plot, int width, int height, QBuffer* out) {
  QPdfWriter pdf(out);
  pdf.setCreator(QStringLiteral("milab"));
  pdf.setTitle(QStringLiteral("milab plot"));
  pdf.setResolution(96);  // fonts resolve as on screen (QCustomPlot::savePdf prints at screen resolution)
  // One page the plot's size in points, no margins: QCustomPlot::savePdf's page.
  pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(width, height), QPageSize::Point, QString(), QPageSize::ExactMatch),
                                QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
  return drawOn(&pdf, plot, width, height);
}

bool renderSvg(QCustomPlot* plot, int width, int height, QBuffer* out) {
  QSvgGenerator svg;
  svg.setOutputDevice(out);
  svg.setSize(QSize(width, height));
  svg.setViewBox(QRect(0, 0, width, height));
  svg.setTitle(QStringLiteral("milab plot"));
  QCPPainter painter;
  if (!painter.begin(&svg)) return false;
  plot->toPainter(&painter, width, height);
  return painter.end();
}

}  // namespace

QString exportPlot(QCustomPlot* plot, const QString& path, int width, int height) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  // Rendered in memory, then written atomically: Qt's PDF and SVG writers ignore a failed write (a full disk left
  // a cut or empty file that said nothing), so the bytes go through the one checked writer.
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  bool ok = false;
  if (suffix == "png") {
    ok = renderPng(plot, width, height, &buffer);
  } else if (suffix == "pdf") {
    ok = renderPdf(plot, width, height, &buffer);
  } else if (suffix == "svg") {
    ok = renderSvg(plot, width, height, &buffer);
  } else {
    return QStringLiteral("%1: unknown plot format '%2' (use png, pdf or svg)").arg(path, suffix);
  }
  buffer.close();
  if (!ok || bytes.isEmpty()) return QStringLiteral("%1: could not draw the plot").arg(path);
  return saveAtomically(path, bytes);
}

}  // namespace milab
