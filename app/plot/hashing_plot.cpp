#include "plot/hashing_plot.h"

#include <qcustomplot.h>

#include <algorithm>

#include "plot/figure_title.h"

namespace milab {

namespace {

QString methodName(const QString& method) {
  if (method == "lsh") return "LSH (sign random projections)";
  if (method == "ammi") return "AMMI (order-0 codes, order-r prior)";
  if (method == "bmmi") return "BMMI (order-0 codes, brute-force entropy)";
  return method.toUpper();
}

}  // namespace

void drawHashingPlot(QCustomPlot* plot, const HashingResult& result, int topK) {
  const bool texts = result.corpus == "fortunes";
  resetWithTitle(plot, QStringLiteral("%1 hashing: top-%2 precision (solid, left), entropy per bit (dashed, right)\n"
                                      "%3 queries against %4 %5")
                           .arg(texts ? "Fortunes" : "Fashion-MNIST")
                           .arg(topK)
                           .arg(result.queries)
                           .arg(result.trainImages)
                           .arg(texts ? "texts (labels: their topics)" : "images"));

  double lo = 1e300, hi = 0, yMax = 0.1;
  QStringList methods;  // LSH first, then the learned codes, in the rows' order
  for (const HashingRow& r : result.rows)
    if (!methods.contains(r.method)) r.method == "lsh" ? methods.prepend(r.method) : methods.append(r.method);
  const QList<QColor> palette{QColor(255, 127, 14), QColor(31, 119, 180), QColor(44, 160, 44)};
  for (int i = 0; i < methods.size(); ++i) {
    QVector<double> bits, precision, entropy;
    for (const HashingRow& r : result.rows)
      if (r.method == methods[i]) {
        bits << r.bits;
        precision << r.precision;
        entropy << r.bitEntropy;
        lo = std::min<double>(lo, r.bits);
        hi = std::max<double>(hi, r.bits);
        yMax = std::max(yMax, r.precision);
      }
    const QColor color = palette[i % palette.size()];
    QCPGraph* g = plot->addGraph();
    g->setName(methodName(methods[i]));
    g->setData(bits, precision);
    g->setPen(QPen(color, 2));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 7));
    QCPGraph* e = plot->addGraph(plot->xAxis, plot->yAxis2);
    e->setData(bits, entropy);
    e->setPen(QPen(color, 1.5, Qt::DashLine));
    e->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    e->removeFromLegend();
  }
  if (hi <= 0) lo = 16, hi = 64;
  if (result.chancePrecision > 0) {  // what a random ranking retrieves
    QCPGraph* chance = plot->addGraph();
    chance->setName(QStringLiteral("chance (a random ranking): %1").arg(result.chancePrecision, 0, 'f', 3));
    chance->setData({lo / 1.2, hi * 1.2}, {result.chancePrecision, result.chancePrecision});
    chance->setPen(QPen(Qt::gray, 1.5, Qt::DotLine));
  }
  plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
  QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
  ticker->setLogBase(2);
  plot->xAxis->setTicker(ticker);
  plot->xAxis->setNumberFormat("f");
  plot->xAxis->setNumberPrecision(0);
  plot->xAxis->setRange(lo / 1.2, hi * 1.2);
  plot->xAxis->setLabel("code length m (bits, log scale)");
  plot->yAxis->setLabel(QStringLiteral("top-%1 precision").arg(topK));
  plot->yAxis->setRange(0, std::min(1.0, yMax + 0.1));
  plot->yAxis2->setVisible(true);
  plot->yAxis2->setLabel("entropy per bit of the training codes (bits)");
  plot->yAxis2->setRange(0, 1.05);
  plot->legend->setVisible(true);
  plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
  plot->replot();
}

}  // namespace milab
