#include "plot/hashing_plot.h"

#include <qcustomplot.h>

#include <algorithm>

#include "plot/figure_title.h"

namespace milab {

void drawHashingPlot(QCustomPlot* plot, const HashingResult& result, int topK) {
  resetWithTitle(plot, QStringLiteral("Fashion-MNIST hashing: top-%1 precision, %2 queries against %3 images")
                           .arg(topK)
                           .arg(result.queries)
                           .arg(result.trainImages));

  double lo = 1e300, hi = 0, yMax = 0.1;
  const QList<QPair<QString, QColor>> methods{{"ammi", QColor(31, 119, 180)}, {"lsh", QColor(255, 127, 14)}};
  for (const auto& [method, color] : methods) {
    QVector<double> bits, precision;
    for (const HashingRow& r : result.rows)
      if (r.method == method) {
        bits << r.bits;
        precision << r.precision;
        lo = std::min<double>(lo, r.bits);
        hi = std::max<double>(hi, r.bits);
        yMax = std::max(yMax, r.precision);
      }
    if (bits.isEmpty()) continue;
    QCPGraph* g = plot->addGraph();
    g->setName(method == "ammi" ? "AMMI (order-0 codes, order-r prior)" : "LSH (sign random projections)");
    g->setData(bits, precision);
    g->setPen(QPen(color, 2));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 7));
  }
  if (hi <= 0) lo = 16, hi = 64;
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
  plot->legend->setVisible(true);
  plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
  plot->replot();
}

}  // namespace milab
