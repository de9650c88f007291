// An MI schedule: one panel per run, its estimate against the step and the true value as a step line.
#include <qcustomplot.h>

#include <QSet>
#include <algorithm>
#include <cmath>

#include "engine/run_set.h"
#include "plot/figure_parts.h"
#include "plot/series_figures.h"
#include "plot/smoothing.h"

namespace milab::figure {

namespace {

constexpr int kStaircaseWidth = 1200, kLegendWidth = 250;  // pixels: the figure, and about what its legend takes

// "750", "4k", "12.5k": a step count as a tick label short enough for a small panel.
QString compactCount(qint64 n) {
  if (n < 1000) return QString::number(n);
  return QString::number(double(n) / 1000, 'g', 4) + "k";
}

}  // namespace

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

}  // namespace milab::figure
