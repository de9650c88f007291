// RunPlot's seed groups (runs that differ only by seed, drawn as their mean with a min-max band), which runs and
// groups are shown, and the smoothing window the curves and groups follow.
#include <qcustomplot.h>

#include <algorithm>
#include <limits>

#include "plot/run_plot.h"
#include "plot/smoothing.h"

namespace milab {

void RunPlot::setSeedGroups(const QList<QPair<QString, QList<int>>>& groups) {
  for (Group& g : groups_)
    for (QCPGraph* graph : {g.mean, g.low, g.high}) plot_->removeGraph(graph);
  groups_.clear();
  for (Series& s : runs_) s.group = -1;
  for (const auto& [label, members] : groups) {
    if (members.size() < 2) continue;
    Group g;
    g.label = label;
    g.members = members;
    const SeriesStyle style = runs_[members.first()].style;
    QColor band = style.color;
    band.setAlpha(45);
    g.low = addGraph(QPen(band, 1), label + " (min)", false);
    g.high = addGraph(QPen(band, 1), label + " (max)", false);
    g.high->setBrush(band);
    g.high->setChannelFillGraph(g.low);
    g.mean = addGraph(style.pen(2.5),
                      QStringLiteral("%1 (mean of %2 seeds, band min-max)").arg(label).arg(members.size()), true);
    for (int m : members) runs_[m].group = int(groups_.size());
    groups_ << g;
    extendGroup(groups_.last());
  }
  updateVisibility();
}

void RunPlot::extendGroup(Group& g) {
  // Index i averages the members that have reached their i-th point; it waits for members still training.
  int until = std::numeric_limits<int>::max();
  for (int m : g.members) until = std::min<int>(until, int(runs_[m].smooth->dataCount()));
  QVector<double> steps, mean, low, high;
  for (int i = g.done; i < until; ++i) {
    double sum = 0, lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
    for (int m : g.members) {
      const double v = runs_[m].smooth->data()->at(i)->value;
      sum += v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    steps << runs_[g.members.first()].steps[i];
    mean << sum / g.members.size();
    low << lo;
    high << hi;
  }
  if (steps.isEmpty()) return;
  g.mean->addData(steps, mean, true);
  g.low->addData(steps, low, true);
  g.high->addData(steps, high, true);
  g.done = until;
}

void RunPlot::updateVisibility() {
  for (const Series& s : runs_) {
    const bool grouped = s.group >= 0;
    s.raw->setVisible(s.visible && !grouped);
    s.smooth->setVisible(s.visible && !grouped);
    if (grouped) s.smooth->removeFromLegend(legend_);
    for (QCPGraph* g : s.references) g->setVisible(s.visible);
    for (QCPGraph* g : s.terms) g->setVisible(s.visible);
    if (s.probe) s.probe->setVisible(s.visible);
    if (s.point) {
      s.point->setVisible(s.visible);
      s.bars->setVisible(s.visible);
    }
  }
  for (const Group& g : groups_) {
    bool any = false;
    for (int m : g.members) any = any || runs_[m].visible;
    for (QCPGraph* graph : {g.mean, g.low, g.high}) graph->setVisible(any);
  }
}

void RunPlot::setSmoothingWindow(int steps) {
  window_ = std::max(1, steps);
  for (Series& s : runs_) {
    s.smooth->setData(s.steps, movingAverage(s.values, window_), true);
    s.sum = 0;  // append() goes on from the sum of the last `window_` values
    for (int i = std::max(0, int(s.values.size()) - window_); i < s.values.size(); ++i) s.sum += s.values[i];
  }
  for (Group& g : groups_) {
    g.done = 0;
    for (QCPGraph* graph : {g.mean, g.low, g.high}) graph->data()->clear();
    extendGroup(g);
  }
}

}  // namespace milab
