// The shared pieces of the series figures (plot/figure_parts.h).
#include "plot/figure_parts.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "engine/run_set.h"
#include "engine/staircase.h"
#include "plot/side_legend.h"
#include "method/shared_method_options.h"

namespace milab::figure {

namespace {
// The label a run's series carries: the method and whatever else differs between the runs, except the keys the
// figure puts on its axes or panels (and the seed, over which series are averaged).
QString seriesLabel(const RunSpec& spec, const QStringList& differing, const QStringList& axisKeys) {
  QStringList keys = differing;
  for (const QString& k : axisKeys) keys.removeAll(k);
  keys.removeAll("seed");
  // A staircase's steps follow from its schedule (whose keys label it); any other run's steps are a setting that
  // tells series apart, never one to average over (runs of 100 and 3000 steps merged into one bar).
  if (scheduleOf(spec.taskParams).isSet()) keys.removeAll("steps");
  return runLabel(spec, keys);
}

}  // namespace

bool isFinished(const FigureRun& r) { return r.result.status == RunStatus::Finished; }

double numberOf(const RunSpec& spec, const QString& key) { return runSpecToFlat(spec).value(key).toDouble(); }

double kOf(const FigureRun& r) { return double(SharedMethodOptions::from(r.spec.methodParams).K.value_or(0)); }
double targetOf(const FigureRun& r) { return r.result.trueMi; }

QString seriesLabel(const FigureRun& r, const LabelKeys& keys, const QStringList& axisKeys) {
  const QString label = seriesLabel(r.spec, keys.value(r.spec.method), axisKeys);
  return r.result.upperBound ? label + " (upper bound)" : label;
}

Stats statsOf(const QList<double>& values, const QList<double>& stderrs) {
  Stats s;
  for (double v : values) s.mean += v / values.size();
  if (values.size() == 1) {
    s.spread = stderrs.value(0);
  } else {
    double ss = 0;
    for (double v : values) ss += (v - s.mean) * (v - s.mean);
    s.spread = std::sqrt(ss / (values.size() - 1));
  }
  return s;
}

double meanOf(const QList<double>& v) {
  double s = 0;
  for (double x : v) s += x / v.size();
  return s;
}

QList<Series> groupSeries(const QList<const FigureRun*>& runs, const LabelKeys& differing, const QStringList& axisKeys,
                          double (*x)(const FigureRun&)) {
  QList<Series> out;
  for (const FigureRun* r : runs) {
    const QString label = seriesLabel(*r, differing, axisKeys);
    auto it = std::find_if(out.begin(), out.end(), [&](const Series& s) { return s.label == label; });
    if (it == out.end()) {
      out << Series{label, {}};
      it = out.end() - 1;
    }
    it->byX[x(*r)] << r;
  }
  return out;
}

QMap<QString, QMap<double, QList<double>>> ceilingsOf(const QList<const FigureRun*>& runs,
                                                      double (*x)(const FigureRun&)) {
  QMap<QString, QMap<double, QList<double>>> out;
  for (const FigureRun* r : runs)
    for (const Ceiling& c : r->result.ceilings) out[c.name][x(*r)] << c.value;
  return out;
}

QCPLegend* legendBeside(QCustomPlot* plot, int row, int column) { return placeSideLegend(plot, row, column); }

QCPAxisRect* addPanel(QCustomPlot* plot, int row, int column, const QString& title) {
  auto* rect = new QCPAxisRect(plot);
  plot->plotLayout()->addElement(2 * row + 1, column, rect);
  if (!title.isEmpty()) plot->plotLayout()->addElement(2 * row, column, new QCPTextElement(plot, title, kTitleFont));
  return rect;
}

QCPGraph* addLine(QCustomPlot* plot, QCPAxisRect* rect, const QVector<double>& x, const QVector<double>& y,
                  const QPen& pen, const QString& name, QCPLegend* legend) {
  QCPGraph* g = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  g->setData(x, y, true);
  g->setPen(pen);
  g->setName(name);
  if (legend) g->addToLegend(legend);
  return g;
}

void setValueTicks(QCPAxis* axis, const QList<double>& values, int panelWidthPx) {
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  const int maxLabels = std::max(2, panelWidthPx / 45);
  const int stride = std::max<int>(1, std::ceil(double(values.size()) / maxLabels));
  for (int i = 0; i < values.size(); i += stride) ticker->addTick(values[i], QString::number(values[i], 'g', 6));
  axis->setTicker(ticker);
}

void addOffScaleNote(QCustomPlot* plot, QCPAxisRect* rect, const QString& text) {
  auto* note = new QCPItemText(plot);
  note->setClipAxisRect(rect);
  note->position->setAxisRect(rect);
  note->position->setType(QCPItemPosition::ptAxisRectRatio);
  note->position->setCoords(0.02, 0.03);
  note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
  note->setFont(QFont("sans", 8));
  note->setColor(QColor(160, 40, 40));
  // On a white card: a note over a target or ceiling line stays readable.
  note->setBrush(QColor(255, 255, 255, 230));
  note->setPadding(QMargins(2, 1, 2, 1));
  note->setText(text);
}

void Range::include(double v) {
  if (!std::isfinite(v)) return;
  lo = std::min(lo, v);
  hi = std::max(hi, v);
}

void Range::apply(QCPAxis* axis, double headroom) const {
  axis->setRange(lo - 0.05 * (hi - lo), hi + headroom * (hi - lo));
}

void Range::reference(double v) {
  include(v);
  if (std::isfinite(v)) reach = std::max(reach, std::abs(v));
}

void Range::reading(double v, double spread, const QString& label, QCPAxisRect* rect) {
  if (std::isfinite(v)) readings << Reading{v, spread, label, rect};
}

void Range::applyToPanels(QCustomPlot* plot, const QList<QCPAxisRect*>& rects) {
  QMap<QCPAxisRect*, QStringList> offScale;
  for (const Reading& r : readings) {
    if (r.value > 2 * reach || r.value < -reach) {
      offScale[r.rect] << QStringLiteral("%1 %2").arg(r.label).arg(r.value, 0, 'g', 3);
      continue;
    }
    include(r.value - r.spread);
    include(r.value + r.spread);
  }
  hi = std::min(hi, 2 * reach);
  lo = std::max(lo, -reach);
  for (QCPAxisRect* rect : rects) {
    apply(rect->axis(QCPAxis::atLeft), offScale.isEmpty() ? 0.08 : 0.25);  // one range for every panel
    if (offScale.contains(rect)) addOffScaleNote(plot, rect, "off scale: " + offScale.value(rect).join(", "));
  }
}

void drawSeriesWithBars(QCustomPlot* plot, QCPAxisRect* rect, const Series& s, const SeriesStyle& style,
                        QCPLegend* legend, Range* range) {
  QVector<double> xs, means, spreads;
  for (auto it = s.byX.cbegin(); it != s.byX.cend(); ++it) {
    QList<double> values, errs;
    for (const FigureRun* r : it.value()) {
      values << r->result.estimate;
      errs << r->result.stderror;
    }
    const Stats st = statsOf(values, errs);
    xs << it.key();
    means << st.mean;
    spreads << st.spread;
    range->reading(st.mean, st.spread, s.label, rect);
  }
  QCPGraph* g = addLine(plot, rect, xs, means, style.pen(), s.label, legend);
  g->setScatterStyle(QCPScatterStyle(style.marker, style.color, style.color, 6));
  auto* bars = new QCPErrorBars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  bars->setDataPlottable(g);
  bars->setData(spreads);
  bars->setPen(QPen(style.color, 1));
  bars->removeFromLegend();
}

FigureSize drawNothing(QCustomPlot* plot, const QString& why) {
  plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, why, kTitleFont));
  plot->replot();
  return {0, 900, 400};
}

}  // namespace milab::figure
