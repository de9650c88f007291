#include "plot/probe_figure.h"

#include <qcustomplot.h>

#include <QMap>
#include <algorithm>
#include <cmath>

#include "engine/run_set.h"
#include "plot/palette.h"
#include "plot/side_legend.h"

namespace milab {

namespace {

const QFont kPanelTitleFont("sans", 10, QFont::Bold);

double readingOf(const RunResult& r, const char* name) {
  for (const NamedValue& v : r.readings)
    if (v.name == name) return v.value;
  return std::numeric_limits<double>::quiet_NaN();
}

struct MeanSpread {
  double mean = 0, spread = 0;  // spread: the standard deviation over seeds (0 for one)
  int n = 0;
};

MeanSpread meanSpread(const QList<double>& values) {
  MeanSpread m;
  for (double v : values)
    if (std::isfinite(v)) {
      m.mean += v;
      ++m.n;
    }
  if (m.n == 0) return m;
  m.mean /= m.n;
  double ss = 0;
  for (double v : values)
    if (std::isfinite(v)) ss += (v - m.mean) * (v - m.mean);
  m.spread = m.n > 1 ? std::sqrt(ss / (m.n - 1)) : 0;
  return m;
}

// A series: the runs of one setting over its seeds, by label (the method and what else differs, not the seed).
struct ProbeSeries {
  QString label;
  QList<const FigureRun*> runs;
};

QList<ProbeSeries> seriesOf(const QList<const FigureRun*>& runs, const QMap<QString, QStringList>& differing) {
  QList<ProbeSeries> out;
  for (const FigureRun* r : runs) {
    QStringList keys = differing.value(r->spec.method);
    keys.removeAll("seed");
    const QString label = runLabel(r->spec, keys);
    auto it = std::find_if(out.begin(), out.end(), [&](const ProbeSeries& s) { return s.label == label; });
    if (it == out.end()) {
      out << ProbeSeries{label, {}};
      it = out.end() - 1;
    }
    it->runs << r;
  }
  return out;
}

// Step -> the runs' probe readings at that step: 0 the untrained encoder, then every probe on the curve.
QMap<double, QList<double>> readingsByStep(const ProbeSeries& s) {
  QMap<double, QList<double>> out;
  for (const FigureRun* r : s.runs) {
    out[0] << readingOf(r->result, "probe_accuracy_untrained");
    for (const CurvePoint& p : r->curve)
      if (std::isfinite(p.probe)) out[p.step] << p.probe;
  }
  return out;
}

QCPAxisRect* addPanel(QCustomPlot* plot, int column, const QString& title) {
  auto* rect = new QCPAxisRect(plot);
  plot->plotLayout()->addElement(1, column, rect);
  plot->plotLayout()->addElement(0, column, new QCPTextElement(plot, title, kPanelTitleFont));
  return rect;
}

QCPGraph* addGraph(QCustomPlot* plot, QCPAxisRect* rect, const QVector<double>& x, const QVector<double>& y,
                   const QPen& pen) {
  QCPGraph* g = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  g->setData(x, y, true);
  g->setPen(pen);
  return g;
}

}  // namespace

bool hasProbeReadings(const QList<FigureRun>& runs) {
  return std::any_of(runs.begin(), runs.end(),
                     [](const FigureRun& r) { return std::isfinite(readingOf(r.result, "probe_accuracy")); });
}

FigureSize drawProbeFigure(QCustomPlot* plot, const QList<const FigureRun*>& runs,
                           const QMap<QString, QStringList>& differing) {
  const QList<ProbeSeries> all = seriesOf(runs, differing);
  QCPAxisRect* curves = addPanel(plot, 0, "linear-probe accuracy during training (mean, band: +-1 sd over seeds)");
  QCPAxisRect* finals = addPanel(plot, 1, "final accuracy (bars: mean, whiskers: sd over seeds)");
  QCPLegend* legend = placeSideLegend(plot, 1, 2);
  double lo = 1, hi = 0;
  const auto include = [&](double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  QList<double> floors, ceilings;
  double lastStep = 1;
  for (int s = 0; s < all.size(); ++s) {
    const SeriesStyle style = seriesStyle(s);
    QVector<double> steps, mean, upper, lower;
    const QMap<double, QList<double>> byStep = readingsByStep(all[s]);
    for (auto it = byStep.cbegin(); it != byStep.cend(); ++it) {
      const MeanSpread m = meanSpread(it.value());
      if (m.n == 0) continue;
      steps << it.key();
      mean << m.mean;
      upper << m.mean + m.spread;
      lower << m.mean - m.spread;
      include(m.mean - m.spread);
      include(m.mean + m.spread);
      lastStep = std::max(lastStep, it.key());
    }
    QCPGraph* line = addGraph(plot, curves, steps, mean, style.pen(2));
    line->setScatterStyle(QCPScatterStyle(style.marker, 6));
    line->setName(all[s].label);
    line->addToLegend(legend);
    QColor band = style.color;
    band.setAlpha(50);
    QCPGraph* top = addGraph(plot, curves, steps, upper, Qt::NoPen);
    QCPGraph* bottom = addGraph(plot, curves, steps, lower, Qt::NoPen);
    top->setBrush(band);
    top->setChannelFillGraph(bottom);

    QList<double> finalValues;
    for (const FigureRun* r : all[s].runs) {
      finalValues << readingOf(r->result, "probe_accuracy");
      floors << readingOf(r->result, "probe_accuracy_untrained");
      ceilings << readingOf(r->result, "probe_accuracy_supervised");
    }
    const MeanSpread f = meanSpread(finalValues);
    auto* bar = new QCPBars(finals->axis(QCPAxis::atBottom), finals->axis(QCPAxis::atLeft));
    bar->setData({double(s)}, {f.mean}, true);
    bar->setWidth(0.6);
    bar->setPen(QPen(style.color.darker(130)));
    bar->setBrush(QColor(style.color.red(), style.color.green(), style.color.blue(), 170));
    auto* whiskers = new QCPErrorBars(finals->axis(QCPAxis::atBottom), finals->axis(QCPAxis::atLeft));
    whiskers->setDataPlottable(bar);
    whiskers->setData({f.spread});
    include(f.mean - f.spread);
    include(f.mean + f.spread);
    ticker->addTick(s, all[s].label);
  }
  // The untrained encoder's accuracy, the honest floor every objective must beat; and, where the runs asked for
  // it, the same encoder trained with the labels: the ceiling.
  const auto reference = [&](const QList<double>& values, Qt::PenStyle style, const QString& name) {
    const MeanSpread m = meanSpread(values);
    if (m.n == 0) return;
    include(m.mean);
    QCPGraph* g =
        addGraph(plot, finals, {-0.5, all.size() - 0.5}, {m.mean, m.mean}, QPen(QColor(60, 60, 60), 2, style));
    g->setName(QStringLiteral("%1 %2").arg(name).arg(m.mean, 0, 'f', 4));
    g->addToLegend(legend);
  };
  reference(floors, Qt::DashLine, "untrained encoder");
  reference(ceilings, Qt::DotLine, "supervised encoder");
  const double pad = std::max(0.005, 0.08 * (hi - lo));
  for (QCPAxisRect* rect : {curves, finals}) {
    rect->axis(QCPAxis::atLeft)->setRange(lo - pad, hi + pad);
    rect->axis(QCPAxis::atLeft)->setLabel("test accuracy");
  }
  curves->axis(QCPAxis::atBottom)->setRange(-0.02 * lastStep, 1.02 * lastStep);
  curves->axis(QCPAxis::atBottom)->setLabel("training step (0: untrained)");
  finals->axis(QCPAxis::atBottom)->setTicker(ticker);
  finals->axis(QCPAxis::atBottom)->setRange(-0.6, all.size() - 0.4);
  if (all.size() > 2) finals->axis(QCPAxis::atBottom)->setTickLabelRotation(-30);
  return {2, 1400, 560};
}

}  // namespace milab
