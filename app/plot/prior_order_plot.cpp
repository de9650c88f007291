#include "plot/prior_order_plot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "plot/figure_title.h"

namespace milab {

void drawPriorOrderPlot(QCustomPlot* plot, const PriorOrderSweep& sweep, const QString& title) {
  resetWithTitle(plot, title);

  QVector<double> orders, optimal, fittedOrders, fitted;
  for (const PriorOrderPoint& p : sweep.points) {
    orders << p.order;
    optimal << p.optimal;
    if (std::isfinite(p.fitted)) {
      fittedOrders << p.order;
      fitted << p.fitted;
    }
  }
  const double lo = orders.isEmpty() ? 0 : orders.first(), hi = orders.isEmpty() ? 1 : orders.last();
  auto line = [&](const QString& name, const QVector<double>& x, const QVector<double>& y, const QPen& pen,
                  QCPScatterStyle::ScatterShape shape) {
    QCPGraph* g = plot->addGraph();
    g->setName(name);
    g->setData(x, y);
    g->setPen(pen);
    g->setScatterStyle(QCPScatterStyle(shape, 7));
  };
  line("H(Z), brute force", {lo, hi}, {sweep.bruteForceEntropy, sweep.bruteForceEntropy}, QPen(Qt::black, 2),
       QCPScatterStyle::ssNone);
  line("m log 2", {lo, hi}, {sweep.uniform, sweep.uniform}, QPen(QColor(120, 120, 120), 1.5, Qt::DashLine),
       QCPScatterStyle::ssNone);
  line("best order-r prior (closed form)", orders, optimal, QPen(QColor(31, 119, 180), 2), QCPScatterStyle::ssCircle);
  if (!fitted.isEmpty())
    line("AMMI's prior, fitted by Adam", fittedOrders, fitted, QPen(QColor(255, 127, 14), 2, Qt::DotLine),
         QCPScatterStyle::ssCross);

  plot->xAxis->setLabel("Markov order r of the prior");
  plot->yAxis->setLabel("cross entropy H+(Z) (nats)");
  plot->xAxis->setRange(lo - 0.5, hi + 0.5);
  QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);  // orders are integers
  ticker->setTickStep(1.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot->xAxis->setTicker(ticker);
  double yMin = sweep.bruteForceEntropy, yMax = sweep.uniform;
  for (double v : optimal + fitted) {
    yMin = std::min(yMin, v);
    yMax = std::max(yMax, v);
  }
  plot->yAxis->setRange(std::max(0.0, yMin - 0.5), yMax + 0.5);
  plot->legend->setVisible(true);
  plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignVCenter | Qt::AlignRight);  // clear of both lines
  plot->replot();
}

}  // namespace milab
