#include "plot/embedding_figure.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFontMetrics>
#include <QPainter>
#include <algorithm>

#include "plot/palette.h"
#include "plot/side_legend.h"
#include "results/run_files.h"

namespace milab {

namespace {

constexpr int kCell = 30;       // a thumbnail's side: about Fashion-MNIST's 28 pixels
constexpr int kGap = 5;         // between thumbnails; the frame is drawn in it
constexpr int kNameWidth = 80;  // the query's class name, left of its row
constexpr int kHeaderHeight = 18;

QImage greyImage(const QByteArray& bytes, int side) {
  QImage image(side, side, QImage::Format_Grayscale8);
  if (bytes.size() < side * side) return image;
  for (int row = 0; row < side; ++row)
    std::copy_n(reinterpret_cast<const uchar*>(bytes.constData()) + row * side, side, image.scanLine(row));
  return image;
}

int neighboursShown(const EmbeddingMap& map) {
  return map.retrievals.isEmpty() ? 0 : int(map.retrievals.front().neighbours.size());
}

}  // namespace

void prepareEmbeddingScatter(QCustomPlot* plot) {
  plot->legend->setVisible(true);
  plot->axisRect()->insetLayout()->take(plot->legend);
  placeSideLegend(plot, 0, 1, plot->legend);
}

void drawEmbeddingScatter(QCustomPlot* plot, const EmbeddingMap& map) {
  plot->clearGraphs();
  const int classes = std::max<int>(map.classNames.size(), 1);
  QVector<QVector<double>> xs(classes), ys(classes);
  for (const EmbeddingMap::Point& p : map.points) {
    const int c = std::clamp(p.label, 0, classes - 1);
    xs[c] << p.x;
    ys[c] << p.y;
  }
  for (int c = 0; c < classes; ++c) {
    QCPGraph* g = plot->addGraph();
    g->setName(map.classNames.value(c, QString::number(c)));
    g->setLineStyle(QCPGraph::lsNone);
    const QColor color = seriesStyle(c).color;
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 4));
    g->setData(xs[c], ys[c]);  // sorted by x here: a graph finds its visible points by bisection
  }
  plot->xAxis->setLabel(QObject::tr("PC 1 (%1% of variance)").arg(100 * map.explained[0], 0, 'f', 1));
  plot->yAxis->setLabel(QObject::tr("PC 2 (%1% of variance)").arg(100 * map.explained[1], 0, 'f', 1));
  plot->rescaleAxes();
  plot->xAxis->scaleRange(1.08);
  plot->yAxis->scaleRange(1.08);
  plot->replot();
}

QImage retrievalSheet(const EmbeddingMap& map, const QFont& font) {
  const int columns = map.retrievals.isEmpty() ? 0 : 1 + neighboursShown(map);
  const int width = kNameWidth + columns * (kCell + kGap);
  const int height = kHeaderHeight + int(map.retrievals.size()) * (kCell + kGap);
  QImage sheet(std::max(width, 1), std::max(height, 1), QImage::Format_RGB32);
  sheet.fill(Qt::white);
  QPainter painter(&sheet);
  QFont small = font;
  small.setPointSizeF(8);
  painter.setFont(small);
  painter.drawText(QRect(kNameWidth, 0, kCell + kGap, kHeaderHeight), Qt::AlignCenter, QObject::tr("query"));
  painter.drawText(QRect(kNameWidth + kCell + kGap, 0, (columns - 1) * (kCell + kGap), kHeaderHeight), Qt::AlignCenter,
                   QObject::tr("nearest neighbours →"));
  for (int r = 0; r < map.retrievals.size(); ++r) {
    const EmbeddingMap::Retrieval& retrieval = map.retrievals[r];
    const int top = kHeaderHeight + r * (kCell + kGap), queryLabel = map.labelOf(retrieval.query);
    painter.setPen(Qt::black);
    painter.drawText(QRect(0, top, kNameWidth - 6, kCell), Qt::AlignRight | Qt::AlignVCenter,
                     map.classNames.value(queryLabel, QString::number(queryLabel)));
    QList<int> shown{retrieval.query};
    shown << QList<int>(retrieval.neighbours.begin(), retrieval.neighbours.end());
    for (int c = 0; c < shown.size(); ++c) {
      const QRect cell(kNameWidth + c * (kCell + kGap) + kGap / 2, top + kGap / 2, kCell, kCell);
      if (c > 0) {
        const bool same = map.labelOf(shown[c]) == queryLabel;
        painter.setPen(QPen(same ? QColor(0x2e, 0x8b, 0x57) : QColor(0xc0, 0x39, 0x2b), 3));
        painter.drawRect(cell.adjusted(-2, -2, 1, 1));
      }
      painter.drawImage(cell, greyImage(map.images.value(shown[c]), map.side));
    }
  }
  painter.end();
  return sheet;
}

QString embeddingCaption(const EmbeddingMap& map) {
  return QObject::tr(
             "%1 test images' encoder features on their two leading principal axes; each class's first test "
             "image and its %2 nearest neighbours (cosine), framed green when of its class. Over all %1 "
             "images, %3% of the %2 nearest neighbours share the image's class")
      .arg(map.points.size())
      .arg(neighboursShown(map))
      .arg(100 * map.neighbourAgreement, 0, 'f', 1);
}

QString exportEmbeddingPng(const EmbeddingMap& map, const QString& title, const QString& path) {
  constexpr int kPlotWidth = 620, kMargin = 8;
  const QImage sheet = retrievalSheet(map, QFont("sans"));
  const int plotHeight = std::max(420, sheet.height());
  QCustomPlot plot;
  prepareEmbeddingScatter(&plot);
  drawEmbeddingScatter(&plot, map);
  const QImage scatter = plot.toPixmap(kPlotWidth, plotHeight, 1.0).toImage();
  const int width = kPlotWidth + sheet.width() + 3 * kMargin;
  const QFont titleFont("sans", 10);
  const QString text = title + "\n" + embeddingCaption(map) + ".";
  // As tall as the wrapped caption: a fixed height clipped its last line.
  const QRect titleBox = QFontMetrics(titleFont).boundingRect(QRect(0, 0, width - 2 * kMargin, 1000),
                                                              Qt::AlignLeft | Qt::TextWordWrap, text);
  const int titleHeight = titleBox.height() + 2 * kMargin;
  QImage figure(width, titleHeight + plotHeight + kMargin, QImage::Format_RGB32);
  figure.fill(Qt::white);
  QPainter painter(&figure);
  painter.setFont(titleFont);
  painter.drawText(QRect(kMargin, kMargin, width - 2 * kMargin, titleBox.height()), Qt::AlignLeft | Qt::TextWordWrap,
                   text);
  painter.drawImage(kMargin, titleHeight, scatter);
  painter.drawImage(2 * kMargin + kPlotWidth, titleHeight, sheet);
  painter.end();
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!figure.save(&buffer, "PNG")) return QObject::tr("%1: cannot draw the embedding figure").arg(path);
  return saveAtomically(path, bytes);
}

}  // namespace milab
