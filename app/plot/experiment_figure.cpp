#include "plot/experiment_figure.h"

#include <qcustomplot.h>

#include <QDir>
#include <QMap>
#include <QSet>
#include <algorithm>
#include <cmath>

#include "engine/run_set.h"
#include "engine/staircase.h"
#include "plot/benchmark_figure.h"
#include "plot/palette.h"
#include "plot/probe_figure.h"
#include "plot/side_legend.h"
#include "plot/smoothing.h"
#include "results/run_files.h"

namespace milab {

namespace {

const QFont kTitleFont("sans", 10, QFont::Bold);
const QFont kLegendFont("sans", 8);
const QColor kCeilingGrey(110, 110, 110);
const Qt::PenStyle kCeilingStyles[] = {Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};

bool isFinished(const FigureRun& r) { return r.result.status == RunStatus::Finished; }

double numberOf(const RunSpec& spec, const QString& key) { return runSpecToFlat(spec).value(key).toDouble(); }

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
// Each method's runs are labelled by their own keys (labelKeysByMethod): the settings they differ in, and the task's.
using LabelKeys = QMap<QString, QStringList>;

QString seriesLabel(const FigureRun& r, const LabelKeys& keys, const QStringList& axisKeys) {
  const QString label = seriesLabel(r.spec, keys.value(r.spec.method), axisKeys);
  return r.result.upperBound ? label + " (upper bound)" : label;
}

struct Stats {
  double mean = 0, spread = 0;
};

// Mean over seeds; the spread is their standard deviation, or the run's own standard error for a single seed.
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

// One line of a figure: a series at several x, each point a mean over seeds.
struct Series {
  QString label;
  QMap<double, QList<const FigureRun*>> byX;
};

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

double kOf(const FigureRun& r) { return r.spec.methodParams.value("K", 0).toDouble(); }
double targetOf(const FigureRun& r) { return r.result.trueMi; }

QCPLegend* legendBeside(QCustomPlot* plot, int row, int column) { return placeSideLegend(plot, row, column); }

QCPAxisRect* addPanel(QCustomPlot* plot, int row, int column, const QString& title) {
  auto* rect = new QCPAxisRect(plot);
  plot->plotLayout()->addElement(2 * row + 1, column, rect);
  if (!title.isEmpty()) plot->plotLayout()->addElement(2 * row, column, new QCPTextElement(plot, title, kTitleFont));
  return rect;
}

QCPGraph* addLine(QCustomPlot* plot, QCPAxisRect* rect, const QVector<double>& x, const QVector<double>& y,
                  const QPen& pen, const QString& name = {}, QCPLegend* legend = nullptr) {
  QCPGraph* g = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  g->setData(x, y, true);
  g->setPen(pen);
  g->setName(name);
  if (legend) g->addToLegend(legend);
  return g;
}

// Ticks at exactly the given values (e.g. the K of the grid), thinned so that their labels never touch.
void setValueTicks(QCPAxis* axis, const QList<double>& values, int panelWidthPx) {
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  const int maxLabels = std::max(2, panelWidthPx / 45);
  const int stride = std::max<int>(1, std::ceil(double(values.size()) / maxLabels));
  for (int i = 0; i < values.size(); i += stride) ticker->addTick(values[i], QString::number(values[i], 'g', 6));
  axis->setTicker(ticker);
}

// A red line in a panel's top left corner naming what the shared y range leaves out.
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

struct Range {
  double lo = 0, hi = 1;
  void include(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  // `headroom` above the highest value, as a share of the span: room for an off-scale note above every line.
  void apply(QCPAxis* axis, double headroom = 0.08) const {
    axis->setRange(lo - 0.05 * (hi - lo), hi + headroom * (hi - lo));
  }

  // Figures of final readings against targets and ceilings (the references): the references set the reach R,
  // as readableRange does for curves, and a reading more than 2R above (or R below zero) is left off scale and
  // named in a note on its panel instead of squashing every other series (CLUB reads 101 nats where the truth
  // is 4 on a 2-dimensional task: its bound is that loose).
  void reference(double v) {
    include(v);
    if (std::isfinite(v)) reach = std::max(reach, std::abs(v));
  }
  void reading(double v, double spread, const QString& label, QCPAxisRect* rect) {
    if (std::isfinite(v)) readings << Reading{v, spread, label, rect};
  }
  // Once every reference and reading is in: the shared y range on every panel, and the notes.
  void applyToPanels(QCustomPlot* plot, const QList<QCPAxisRect*>& rects) {
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

 private:
  struct Reading {
    double value, spread;
    QString label;
    QCPAxisRect* rect;
  };
  double reach = 1;
  QList<Reading> readings;
};

// The ceilings of the runs of a panel, by name: (x, mean value) points, so that a ceiling that is a function
// of K is drawn as one, and a method without ceilings adds none.
QMap<QString, QMap<double, QList<double>>> ceilingsOf(const QList<const FigureRun*>& runs,
                                                      double (*x)(const FigureRun&)) {
  QMap<QString, QMap<double, QList<double>>> out;
  for (const FigureRun* r : runs)
    for (const Ceiling& c : r->result.ceilings) out[c.name][x(*r)] << c.value;
  return out;
}

double meanOf(const QList<double>& v) {
  double s = 0;
  for (double x : v) s += x / v.size();
  return s;
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

// Several K: one panel per MI, estimate against K.
FigureSize drawVsK(QCustomPlot* plot, const QList<const FigureRun*>& runs, const LabelKeys& differing) {
  QList<double> mis, ks;
  for (const FigureRun* r : runs) {
    const double mi = numberOf(r->spec, "mi");
    if (!mis.contains(mi)) mis << mi;
    if (kOf(*r) > 0 && !ks.contains(kOf(*r))) ks << kOf(*r);
  }
  std::sort(mis.begin(), mis.end());
  std::sort(ks.begin(), ks.end());
  const QList<Series> all = groupSeries(runs, differing, {"K", "mi"}, kOf);
  const int width = std::max(900, 330 * int(mis.size()) + 260);
  QCPLegend* legend = legendBeside(plot, 1, int(mis.size()));
  Range range;
  QList<QCPAxisRect*> rects;
  QSet<QString> inLegend;
  for (int p = 0; p < mis.size(); ++p) {
    QList<const FigureRun*> panelRuns;
    for (const FigureRun* r : runs)
      if (numberOf(r->spec, "mi") == mis[p] && kOf(*r) > 0) panelRuns << r;
    QCPAxisRect* rect = addPanel(plot, 0, p, QStringLiteral("total MI = %1 nats").arg(mis[p]));
    rects << rect;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    x->setScaleType(QCPAxis::stLogarithmic);
    setValueTicks(x, ks, (width - 260) / int(mis.size()));
    x->setLabel("K (log scale)");
    x->setRange(ks.first() / 1.25, ks.last() * 1.25);
    if (p == 0) rect->axis(QCPAxis::atLeft)->setLabel("estimate (nats)");
    auto once = [&](const QString& name) {
      if (inLegend.contains(name)) return static_cast<QCPLegend*>(nullptr);
      inLegend << name;
      return legend;
    };
    // Each target in black: the total MI solid, any other (I(x;y|x') for cnce) dashed.
    QMap<QString, QList<double>> targets;
    for (const FigureRun* r : panelRuns)  // a dataset's truth is unknown (NaN): no line
      if (!std::isnan(r->result.trueMi)) targets[r->result.targetName] << r->result.trueMi;
    int t = 0;
    for (auto it = targets.cbegin(); it != targets.cend(); ++it, ++t) {
      const double v = meanOf(it.value());
      range.reference(v);
      addLine(plot, rect, {ks.first() / 1.25, ks.last() * 1.25}, {v, v},
              QPen(Qt::black, 2, it.key().startsWith("I(x;y|") ? Qt::DashLine : Qt::SolidLine), "true " + it.key(),
              once("true " + it.key()));
    }
    int c = 0;
    const auto ceilings = ceilingsOf(panelRuns, kOf);
    for (auto it = ceilings.cbegin(); it != ceilings.cend(); ++it, ++c) {
      QVector<double> cx, cy;
      for (auto p2 = it.value().cbegin(); p2 != it.value().cend(); ++p2) {
        cx << p2.key();
        cy << meanOf(p2.value());
        range.reference(cy.last());
      }
      QCPGraph* g = addLine(plot, rect, cx, cy, QPen(kCeilingGrey, 1.5, kCeilingStyles[c % 4]), "ceiling " + it.key(),
                            once("ceiling " + it.key()));
      g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssPlus, kCeilingGrey, 5));
    }
    for (int s = 0; s < all.size(); ++s) {
      Series panelSeries{all[s].label, {}};
      for (auto it = all[s].byX.cbegin(); it != all[s].byX.cend(); ++it)
        for (const FigureRun* r : it.value())
          if (numberOf(r->spec, "mi") == mis[p]) panelSeries.byX[it.key()] << r;
      if (!panelSeries.byX.isEmpty())
        drawSeriesWithBars(plot, rect, panelSeries, seriesStyle(s), once(all[s].label), &range);
    }
  }
  range.applyToPanels(plot, rects);
  return {int(mis.size()), width, 560};
}

// Several MI values: estimate against the exact value each method estimates, with the diagonal.
FigureSize drawVsTruth(QCustomPlot* plot, const QList<const FigureRun*>& runs, const LabelKeys& differing) {
  const QList<Series> all = groupSeries(runs, differing, {"mi"}, targetOf);
  QCPAxisRect* rect = addPanel(plot, 0, 0, "estimate against the true value");
  QCPLegend* legend = legendBeside(plot, 1, 1);
  Range range;
  double tMin = 1e300, tMax = -1e300;
  for (const FigureRun* r : runs) {
    tMin = std::min(tMin, r->result.trueMi);
    tMax = std::max(tMax, r->result.trueMi);
  }
  const double pad = 0.05 * std::max(1.0, tMax - tMin);
  range.reference(tMin);
  range.reference(tMax);
  addLine(plot, rect, {tMin - pad, tMax + pad}, {tMin - pad, tMax + pad}, QPen(Qt::black, 2), "true value (y = x)",
          legend);
  int c = 0;
  const auto ceilings = ceilingsOf(runs, targetOf);
  for (auto it = ceilings.cbegin(); it != ceilings.cend(); ++it, ++c) {
    // A ceiling does not depend on the MI: a horizontal line at each distinct value (one per K, say).
    QSet<double> values;
    for (const QList<double>& vs : it.value())
      for (double v : vs) values << v;
    bool named = false;
    for (double v : values) {
      range.reference(v);
      addLine(plot, rect, {tMin - pad, tMax + pad}, {v, v}, QPen(kCeilingGrey, 1.5, kCeilingStyles[c % 4]),
              QStringLiteral("ceiling %1").arg(it.key()), named ? nullptr : legend);
      named = true;
    }
  }
  for (int s = 0; s < all.size(); ++s) drawSeriesWithBars(plot, rect, all[s], seriesStyle(s), legend, &range);
  rect->axis(QCPAxis::atBottom)->setLabel("true value of what the method estimates (nats)");
  rect->axis(QCPAxis::atLeft)->setLabel("estimate (nats)");
  rect->axis(QCPAxis::atBottom)->setRange(tMin - pad, tMax + pad);
  range.applyToPanels(plot, {rect});
  return {1, 1200, 620};
}

// Only the method (or a non-numeric key) varies: one bar per series, its target and ceilings over it.
FigureSize drawBars(QCustomPlot* plot, const QList<const FigureRun*>& runs, const LabelKeys& differing) {
  const QList<Series> all = groupSeries(runs, differing, {}, [](const FigureRun&) { return 0.0; });
  QCPAxisRect* rect = addPanel(plot, 0, 0, "final estimates");
  QCPLegend* legend = legendBeside(plot, 1, 1);
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  Range range;
  bool targetNamed = false;
  QSet<QString> ceilingNamed;
  QStringList ceilingNames;
  for (int s = 0; s < all.size(); ++s) {
    const SeriesStyle style = seriesStyle(s);
    const QList<const FigureRun*> members = all[s].byX.value(0.0);
    QList<double> values, errs, targets;
    for (const FigureRun* r : members) {
      values << r->result.estimate;
      errs << r->result.stderror;
      targets << r->result.trueMi;
    }
    const Stats st = statsOf(values, errs);
    auto* bar = new QCPBars(x, y);
    bar->setData({double(s)}, {st.mean}, true);
    bar->setWidth(0.6);
    bar->setPen(QPen(style.color.darker(130)));
    bar->setBrush(QColor(style.color.red(), style.color.green(), style.color.blue(), 170));
    bar->setName(all[s].label);
    bar->addToLegend(legend);
    auto* bars = new QCPErrorBars(x, y);
    bars->setDataPlottable(bar);
    bars->setData({st.spread});
    bars->removeFromLegend();
    range.reading(st.mean, st.spread, all[s].label, rect);
    ticker->addTick(s, all[s].label);
    const double target = meanOf(targets);
    if (!std::isnan(target)) {  // a dataset's truth is unknown: no line
      range.reference(target);
      addLine(plot, rect, {s - 0.42, s + 0.42}, {target, target}, QPen(Qt::black, 2.5),
              "true value (each method's own target)", targetNamed ? nullptr : legend);
      targetNamed = true;
    }
    for (const Ceiling& c : members.first()->result.ceilings) {
      if (!ceilingNames.contains(c.name)) ceilingNames << c.name;
      range.reference(c.value);
      addLine(plot, rect, {s - 0.42, s + 0.42}, {c.value, c.value},
              QPen(kCeilingGrey, 2, kCeilingStyles[ceilingNames.indexOf(c.name) % 4]), "ceiling " + c.name,
              ceilingNamed.contains(c.name) ? nullptr : legend);
      ceilingNamed << c.name;
    }
  }
  x->setTicker(ticker);
  if (all.size() > 4) x->setTickLabelRotation(-30);  // each label ends at its bar, none runs off the right
  x->setRange(-0.6, all.size() - 0.4);
  y->setLabel("estimate (nats)");
  range.applyToPanels(plot, {rect});
  return {1, 1200, 620};
}

constexpr int kStaircaseWidth = 1200, kLegendWidth = 250;  // pixels: the figure, and about what its legend takes

// "750", "4k", "12.5k": a step count as a tick label short enough for a small panel.
QString compactCount(qint64 n) {
  if (n < 1000) return QString::number(n);
  return QString::number(double(n) / 1000, 'g', 4) + "k";
}

// The staircase: one panel per run, the true value as a black step line, a shared y axis. The y range is the
// readable one (plot/smoothing.h); a panel whose curve leaves it says so.
FigureSize drawStaircase(QCustomPlot* plot, const QList<const FigureRun*>& runs, const LabelKeys& differing) {
  const int n = int(runs.size());
  const int columns = n <= 3 ? n : n <= 8 ? (n + 1) / 2 : std::min(4, int(std::ceil(std::sqrt(double(n)))));
  const int rows = (n + columns - 1) / columns;
  QCPLegend* legend = legendBeside(plot, 1, columns);
  QVector<double> allSmoothed;
  QList<double> references;
  QList<QVector<double>> smoothedOf;
  QList<QCPAxisRect*> rects;
  for (int i = 0; i < n; ++i) {
    const FigureRun& r = *runs[i];
    QStringList labelKeys = differing.value(r.spec.method);
    labelKeys.removeAll("steps");
    // The method and each setting on a line of its own: one long line widened its column and clipped its
    // neighbours' titles.
    const QString title = runLabel(r.spec, labelKeys).replace(' ', '\n');
    QCPAxisRect* rect = addPanel(plot, i / columns, i % columns, title);
    rects << rect;
    const SeriesStyle style = seriesStyle(i);
    const int perLevel = std::max(1, r.result.stepsPerLevel);
    QVector<double> steps, values;
    for (const CurvePoint& p : r.curve) {
      steps << p.step;
      values << p.estimate;
    }
    const int window = std::max(1, perLevel / 20);
    const QVector<double> smooth = movingAverage(values, window);
    QColor faint = style.color;
    faint.setAlpha(60);
    addLine(plot, rect, steps, values, QPen(faint, 1), "estimate per step", i == 0 ? legend : nullptr);
    addLine(plot, rect, steps, smooth, QPen(style.color, 2), QStringLiteral("moving average (%1 steps)").arg(window),
            i == 0 ? legend : nullptr);
    allSmoothed << smooth;
    smoothedOf << smooth;
    QVector<double> tx, ty;
    for (int l = 0; l < r.result.levels.size(); ++l) {
      tx << l * perLevel << (l + 1) * perLevel;
      ty << r.result.levels[l].target << r.result.levels[l].target;
      references << r.result.levels[l].target;
    }
    addLine(plot, rect, tx, ty, QPen(Qt::black, 2), "true " + r.result.targetName, i == 0 ? legend : nullptr);
    for (const Ceiling& c : r.result.ceilings) {
      references << c.value;
      addLine(plot, rect, {0, double(r.spec.steps)}, {c.value, c.value}, QPen(style.color, 1.5, Qt::DashLine),
              "ceiling " + c.name, i == 0 ? legend : nullptr);
    }
    rect->axis(QCPAxis::atBottom)->setRange(0, r.spec.steps);
    rect->axis(QCPAxis::atBottom)->setLabel(i / columns == rows - 1 ? "training step" : "");
    if (i % columns == 0) rect->axis(QCPAxis::atLeft)->setLabel("estimate (nats)");
  }
  const auto [lo, hi] = readableRange(allSmoothed, references);
  Range range;
  range.lo = lo;
  range.hi = hi;
  for (int i = 0; i < n; ++i) {
    QCPAxisRect* rect = rects[i];
    range.apply(rect->axis(QCPAxis::atLeft));
    // Ticks at the level boundaries, labelled compactly (4k, not 4000) and thinned to the panel's width: the default
    // ticker ran five-digit labels together on small panels ("7501000125015000").
    const FigureRun& r = *runs[i];
    const int perLevel = std::max(1, r.result.stepsPerLevel), levels = int(r.result.levels.size());
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int maxLabels = std::max(2, (kStaircaseWidth - kLegendWidth) / columns / 45);
    const int stride = std::max(1, int(std::ceil(double(levels + 1) / maxLabels)));
    for (int l = 0; l <= levels; l += stride) ticker->addTick(double(l) * perLevel, compactCount(qint64(l) * perLevel));
    rect->axis(QCPAxis::atBottom)->setTicker(ticker);
    // Says how much of the curve is off scale, not only its extremes: one wild step reads otherwise as a lost curve.
    const QCPRange shown = rect->axis(QCPAxis::atLeft)->range();
    const QVector<double>& smooth = smoothedOf[i];
    const auto off =
        std::count_if(smooth.cbegin(), smooth.cend(), [&](double v) { return v < shown.lower || v > shown.upper; });
    if (off > 0) {
      const auto [minIt, maxIt] = std::minmax_element(smooth.cbegin(), smooth.cend());
      addOffScaleNote(plot, rect,
                      QStringLiteral("%1 of %2 steps off scale\n(%3 to %4)")
                          .arg(off)
                          .arg(smooth.size())
                          .arg(*minIt, 0, 'g', 3)
                          .arg(*maxIt, 0, 'g', 3));
    }
  }
  return {n, kStaircaseWidth, std::max(420, 300 * rows + 60)};
}

}  // namespace

FigureKind chooseFigure(const QList<FigureRun>& runs) {
  QSet<double> ks, mis;
  QSet<QString> tasks;
  // A staircase is drawn as one, whatever the tasks: each panel follows its own run's levels and targets
  // (beyond-log-k runs DEMI on gaussian3 beside the others on gaussian2, at the same total MI per level).
  if (hasProbeReadings(runs)) return FigureKind::Probe;  // what these runs are read by is their probe
  for (const FigureRun& r : runs)
    if (!r.result.levels.isEmpty()) return FigureKind::Staircase;
  for (const FigureRun& r : runs) tasks << r.spec.task;
  if (tasks.size() > 1) return FigureKind::Heatmap;
  for (const FigureRun& r : runs) {
    if (!isFinished(r)) continue;
    if (kOf(r) > 0) ks << kOf(r);
    mis << numberOf(r.spec, "mi");
  }
  if (ks.size() > 1) return FigureKind::EstimateVsK;
  if (mis.size() > 1) return FigureKind::EstimateVsTruth;
  return FigureKind::Bars;
}

QString figureFileStem(FigureKind kind) {
  switch (kind) {
    case FigureKind::EstimateVsK:
      return "estimate_vs_K";
    case FigureKind::EstimateVsTruth:
      return "estimate_vs_truth";
    case FigureKind::Staircase:
      return "staircase";
    case FigureKind::Bars:
      return "estimates";
    case FigureKind::Heatmap:
      return "benchmark";
    case FigureKind::Probe:
      return "probe_accuracy";
  }
  return {};
}

FigureSize drawFigure(QCustomPlot* plot, FigureKind kind, const QList<FigureRun>& runs) {
  plot->clearPlottables();
  plot->clearItems();
  plot->plotLayout()->clear();  // also deletes the default legend; each figure builds its own
  plot->setAutoAddPlottableToLegend(false);
  QList<const FigureRun*> shown;
  QList<RunSpec> specs;
  for (const FigureRun& r : runs) {
    const bool drawable = kind == FigureKind::Staircase ? !r.curve.isEmpty() && !r.result.levels.isEmpty()
                          : kind == FigureKind::Probe
                              ? hasProbeReadings({r})
                              : isFinished(r) && (kind != FigureKind::EstimateVsK || kOf(r) > 0);
    if (!drawable) continue;
    shown << &r;
    specs << r.spec;
  }
  if (shown.isEmpty())
    return drawNothing(plot, kind == FigureKind::Staircase ? "no staircase run with training points yet"
                                                           : "no finished run to draw yet");
  const LabelKeys differing = labelKeysByMethod(specs);
  FigureSize size;
  switch (kind) {
    case FigureKind::EstimateVsK:
      size = drawVsK(plot, shown, differing);
      break;
    case FigureKind::EstimateVsTruth:
      size = drawVsTruth(plot, shown, differing);
      break;
    case FigureKind::Staircase:
      size = drawStaircase(plot, shown, differing);
      break;
    case FigureKind::Bars:
      size = drawBars(plot, shown, differing);
      break;
    case FigureKind::Heatmap:
      size = drawBenchmarkHeatmap(plot, shown);
      break;
    case FigureKind::Probe:
      size = drawProbeFigure(plot, shown, differing);
      break;
  }
  plot->replot();
  return size;
}

FigureRun figureRunOf(const CellResult& c, const QString& outDir) {
  FigureRun run{c.cell.spec, c.result, {}};
  if (!c.result.levels.isEmpty() || !c.result.readings.isEmpty())
    run.curve = readCurveCsv(QDir(outDir).filePath("cells/" + c.cell.name + "/curve.csv"));
  return run;
}

}  // namespace milab
