// Where RunPlot's axes go: the range that fits what is shown (a few wild steps left off scale), the x axis of a
// view of readings only, the readings without a curve placed beside the curves, and the refresh tick.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "plot/run_plot.h"
#include "plot/side_legend.h"
#include "plot/smoothing.h"

namespace milab {

void RunPlot::resetView() {
  follow_ = true;
  double xMax = 1;
  QVector<double> values;
  QList<double> references, ceilings;
  bool heldOut = false;
  const bool readingsOnly = showsReadingsOnly();
  plot_->xAxis->setLabel(readingsOnly ? "no training: one reading from the samples" : "training step");
  plot_->xAxis->setTicks(!readingsOnly);
  plot_->xAxis->setTickLabels(!readingsOnly);
  plot_->xAxis->grid()->setVisible(!readingsOnly);
  for (const Series& s : runs_) {
    if (!s.visible) continue;
    // While a run trains its planned span shows; once it ended (or was stopped), the steps it did.
    if (!readingsOnly) xMax = std::max(xMax, s.ended && !s.steps.isEmpty() ? s.steps.last() : double(s.plannedSteps));
    references << s.levels;
    ceilings << s.ceilings;
    heldOut = heldOut || (s.heldOut && s.heldOut->dataCount() > 0);
    // The held-out readings are the run's readings (the best of them reported): in view, however low (-2.59 at a
    // critic's start was off the plot, unsaid).
    if (s.heldOut)
      for (auto it = s.heldOut->data()->constBegin(); it != s.heldOut->data()->constEnd(); ++it) references << it->value;
    // At most ~2000 evenly spaced points per run: the view follows the data 30 times a second, for long runs too.
    const int n = s.smooth->dataCount(), stride = std::max(1, n / 2000);
    for (int i = 0; i < n; i += stride) values << s.smooth->data()->at(i)->value;
  }
  // The readings and the truth set the view (a few wild steps stay off scale); an empty plot keeps 0 to 1.
  const bool nothing = values.isEmpty() && references.isEmpty();
  auto [lo, hi] = readableRange(values, references, nothing ? 1 : 0);
  if (spanEveryReading_)
    for (double v : values)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  // A ceiling near the data joins the view (log K = 4.85 over a 2-nat task); a far one would press the data into a
  // sliver at the bottom, and is drawn at the top edge with its value instead (markCeilingsAbove).
  constexpr double kLeastSpan = 0.25;  // nats: a flat curve at 0 is not blown up into noise
  const double reach = hi + 1.5 * std::max(hi - lo, kLeastSpan);
  for (double c : ceilings)
    if (std::isfinite(c) && c > hi && c <= reach) hi = c;
  const double pad = 0.08 * std::max(hi - lo, kLeastSpan);
  // Held-out readings are circles, the last at the last step, which is the reported estimate: room for all of it
  // (the axis ended at its centre and cut it in half).
  plot_->xAxis->setRange(0, heldOut ? xMax * 1.03 : xMax);
  plot_->yAxis->setRange(lo - pad, hi + pad);
  markCeilingsAbove(hi + pad, hi - lo + 2 * pad);
  placePoints(xMax, readingsOnly);
}

void RunPlot::markCeilingsAbove(double top, double span) {
  for (QCPItemText* label : edgeLabels_) plot_->removeItem(label);
  edgeLabels_.clear();
  QStringList above;
  QColor colour;
  for (FlatLine& line : flatLines_) {
    const bool beyond = line.ceiling && line.value > top;
    line.drawnAt = beyond ? top - 0.02 * span : line.value;
    if (!beyond || !line.graph->visible() || above.contains(line.graph->name())) continue;
    above << line.graph->name();
    colour = line.graph->pen().color();
  }
  clipFlatLines();
  if (above.isEmpty()) return;
  auto* label = new QCPItemText(plot_);
  label->setClipToAxisRect(true);
  label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
  label->position->setTypeY(QCPItemPosition::ptPlotCoords);
  label->position->setCoords(0.995, top - 0.03 * span);
  label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
  label->setColor(above.size() == 1 ? colour : QColor(60, 60, 60));
  label->setText(QStringLiteral("above the view: %1").arg(above.join("; ")));
  edgeLabels_ << label;
}

bool RunPlot::showsReadingsOnly() const {
  bool anyCurve = false, anyPoint = false;
  for (const Series& s : runs_)
    if (s.visible) {
      anyCurve = anyCurve || !s.ended || !s.steps.isEmpty();
      anyPoint = anyPoint || s.point;
    }
  return anyPoint && !anyCurve;
}

void RunPlot::capRunEntries() {
  // A set of 28 runs listed 28 entries, and its legend took the plot's height at 1280 x 720 (issue 79): past
  // kMostRunsNamed, the runs are in the table, each row's number in its run's colour.
  constexpr int kMostRunsNamed = 12;
  QList<QCPAbstractPlottable*> entries;
  for (const Series& s : runs_)
    if (s.group < 0) entries << (s.point ? s.point : s.smooth);
  for (const Group& g : groups_) entries << g.mean;
  for (int i = 0; i < entries.size(); ++i)
    if (i >= kMostRunsNamed)
      entries[i]->removeFromLegend(legend_);
    else if (!legend_->hasItemWithPlottable(entries[i]))
      entries[i]->addToLegend(legend_);
  const qsizetype more = entries.size() - kMostRunsNamed;
  if (more > 0 && !moreKey_) moreKey_ = addGraph(QPen(Qt::NoPen), QString(), false);
  if (!moreKey_) return;
  moreKey_->setName(QStringLiteral("and %1 more (the table lists every run)").arg(more));
  if (more <= 0)
    moreKey_->removeFromLegend(legend_);
  else if (!legend_->hasItemWithPlottable(moreKey_))  // added once, not again at every refresh (30 a second)
    moreKey_->addToLegend(legend_);
}

void RunPlot::refresh() {
  capRunEntries();
  legend_->setVisible(legend_->itemCount() > 0);  // no empty box on a cleared plot
  fitSideLegend(plot_, legend_);
  if (follow_) resetView();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RunPlot::placePoints(double xMax, bool readingsOnly) {
  int j = 0, points = 0;
  for (const Series& s : runs_) points += s.point != nullptr;
  for (Series& s : runs_)
    if (s.point)  // beside the curves' final readings, or spread over the axis when there are no curves
      s.point->data()->begin()->key = readingsOnly ? xMax * (j++ + 1) / (points + 1) : xMax * (0.96 - 0.03 * j++);
}

}  // namespace milab
