#include "plot/grid_plot.h"

#include <qcustomplot.h>

#include <QMap>
#include <algorithm>
#include <cmath>

namespace milab {

namespace {

// The line a cell belongs to: its method plus the method-row keys that are not grid axes (e.g. protocol).
QString seriesLabel(const CellResult& c) {
  QString label = c.cell.spec.method;
  const QString protocol = c.cell.spec.methodParams.value("protocol").toString();
  if (!protocol.isEmpty()) label += QStringLiteral(" (%1)").arg(protocol);
  const QString critic = c.cell.spec.methodParams.value("critic").toString();
  if (critic == "oracle") label += " [oracle]";
  return label;
}

struct Stats {
  double mean = 0, spread = 0;
};

Stats stats(const QList<const CellResult*>& cells) {
  Stats s;
  for (const CellResult* c : cells) s.mean += c->result.estimate / cells.size();
  if (cells.size() == 1) {
    s.spread = cells[0]->result.stderror;
  } else {
    double ss = 0;
    for (const CellResult* c : cells) ss += (c->result.estimate - s.mean) * (c->result.estimate - s.mean);
    s.spread = std::sqrt(ss / (cells.size() - 1));
  }
  return s;
}

const QList<QColor>& palette() {
  static const QList<QColor> colors{QColor(31, 119, 180),  QColor(255, 127, 14),  QColor(44, 160, 44),
                                    QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75),
                                    QColor(227, 119, 194), QColor(127, 127, 127)};
  return colors;
}

QCPGraph* addCurve(QCustomPlot* plot, QCPAxisRect* rect, const QString& name, const QVector<double>& k,
                   const QVector<double>& v, const QPen& pen, QCPLegend* legend) {
  QCPGraph* g = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  g->setData(k, v);
  g->setPen(pen);
  g->setName(name);
  if (legend) g->addToLegend(legend);
  return g;
}

}  // namespace

int drawGridPlot(QCustomPlot* plot, const QList<CellResult>& cells) {
  plot->clearPlottables();
  plot->clearItems();
  plot->plotLayout()->clear();  // also deletes the default legend; each panel is built below
  plot->setAutoAddPlottableToLegend(false);

  QList<double> mis;
  QStringList series;
  double kMin = 1e300, kMax = 0;
  for (const CellResult& c : cells) {
    if (c.result.status != RunStatus::Finished) continue;
    const double mi = c.cell.spec.taskParams.value("mi").toDouble();
    if (!mis.contains(mi)) mis << mi;
    if (!series.contains(seriesLabel(c))) series << seriesLabel(c);
    const double K = c.cell.spec.methodParams.value("K", 0).toDouble();
    if (K > 0) {
      kMin = std::min(kMin, K);
      kMax = std::max(kMax, K);
    }
  }
  std::sort(mis.begin(), mis.end());
  if (mis.isEmpty() || kMax <= 0) {
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, "no finished cell with a K to plot"));
    plot->replot();
    return 1;
  }

  // K values dense on a log scale for the ceilings, which are functions of K.
  QVector<double> kDense;
  for (double e = std::log2(kMin); e <= std::log2(kMax) + 1e-9; e += 0.05) kDense << std::exp2(e);

  for (int p = 0; p < mis.size(); ++p) {
    QCPAxisRect* rect = new QCPAxisRect(plot);
    plot->plotLayout()->addElement(1, p, rect);
    QCPLegend* legend = nullptr;  // the first panel's legend lists every line
    if (p == 0) {
      legend = new QCPLegend;
      rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
      legend->setLayer("legend");
      legend->setFont(QFont("sans", 8));
    }
    plot->plotLayout()->addElement(
        0, p,
        new QCPTextElement(plot, QStringLiteral("true MI = %1 nats").arg(mis[p]), QFont("sans", 10, QFont::Bold)));
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    x->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(2);
    x->setTicker(ticker);
    x->setNumberFormat("f");
    x->setNumberPrecision(0);
    x->setLabel("K (log scale)");
    if (p == 0) y->setLabel("estimate (nats)");
    x->setRange(kMin / 1.2, kMax * 1.2);

    double yMax = mis[p];
    QVector<double> logK, twoLogHalfK, twoLogK, truth;
    for (double k : kDense) {
      logK << std::log(k);
      twoLogHalfK << 2 * std::log(k / 2);
      twoLogK << 2 * std::log(k);
      truth << mis[p];
    }
    const QColor grey(120, 120, 120);
    addCurve(plot, rect, "true MI", kDense, truth, QPen(Qt::black, 2), legend);
    addCurve(plot, rect, "log K", kDense, logK, QPen(grey, 1.5, Qt::DashLine), legend);
    addCurve(plot, rect, "2 log(K/2)", kDense, twoLogHalfK, QPen(grey, 1.5, Qt::DotLine), legend);
    addCurve(plot, rect, "2 log K", kDense, twoLogK, QPen(grey, 1.5, Qt::DashDotLine), legend);

    for (int s = 0; s < series.size(); ++s) {
      QMap<double, QList<const CellResult*>> byK;
      for (const CellResult& c : cells)
        if (c.result.status == RunStatus::Finished && seriesLabel(c) == series[s] &&
            c.cell.spec.taskParams.value("mi").toDouble() == mis[p])
          byK[c.cell.spec.methodParams.value("K", 0).toDouble()] << &c;
      QVector<double> ks, means, spreads;
      for (auto it = byK.cbegin(); it != byK.cend(); ++it) {
        if (it.key() <= 0) continue;
        const Stats st = stats(it.value());
        ks << it.key();
        means << st.mean;
        spreads << st.spread;
        yMax = std::max(yMax, st.mean + st.spread);
      }
      if (ks.isEmpty()) continue;
      const QColor color = palette()[s % palette().size()];
      QCPGraph* g = addCurve(plot, rect, series[s], ks, means, QPen(color, 2), legend);
      g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
      QCPErrorBars* bars = new QCPErrorBars(x, y);
      bars->setDataPlottable(g);
      bars->setData(spreads);
      bars->setPen(QPen(color, 1));
    }
    y->setRange(0, std::max(yMax, std::min(mis.last(), 2 * std::log(kMax))) * 1.1 + 0.5);
  }
  plot->replot();
  return mis.size();
}

}  // namespace milab
