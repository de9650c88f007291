// RunPlot's seed groups (runs that differ only by seed, drawn as their mean with a min-max band), which runs and
// groups are shown, and the smoothing window the curves and groups follow.
#include <qcustomplot.h>

#include <algorithm>
#include <limits>

#include "plot/run_plot.h"
#include "plot/smoothing.h"

namespace milab {

void RunPlot::setSeedGroups(const QList<QPair<QString, QList<int>>>& groups, const QList<int>& seeds) {
  for (Group& g : groups_)
    for (QCPGraph* graph : {g.mean, g.low, g.high}) plot_->removeGraph(graph);
  groups_.clear();
  for (Series& s : runs_) {
    s.group = -1;
    s.style = s.own;
  }
  for (int i = 0; i < groups.size(); ++i) {
    const auto& [label, members] = groups[i];
    if (members.size() < 2) continue;
    Group g;
    g.label = label;
    g.members = members;
    const SeriesStyle style = runs_[members.first()].own;
    QColor band = style.color;
    band.setAlpha(45);
    g.low = addGraph(QPen(band, 1), label + " (min)", false);
    g.high = addGraph(QPen(band, 1), label + " (max)", false);
    g.high->setBrush(band);
    g.high->setChannelFillGraph(g.low);
    const int distinct = seeds.value(i, int(members.size()));
    const QString count = distinct < members.size()
                              ? QStringLiteral("%1 runs, %2 seeds").arg(members.size()).arg(distinct)
                              : QStringLiteral("%1 seeds").arg(members.size());
    g.mean = addGraph(style.pen(2.5), QStringLiteral("%1 (mean of %2, band min-max)").arg(label, count), true);
    // A member's ceilings and oracle are the group's: drawn in the colour its legend entry shows.
    for (int m : members) {
      runs_[m].group = int(groups_.size());
      runs_[m].style = style;
    }
    groups_ << g;
    extendGroup(groups_.last());
  }
  for (Series& s : runs_) recolorReferences(s);
  updateVisibility();
}

void RunPlot::recolorReferences(Series& s) {
  const auto recolor = [&](QCPGraph* graph) {
    if (!graph) return;
    QPen pen = graph->pen();
    pen.setColor(s.style.color);
    graph->setPen(pen);
    QCPScatterStyle scatter = graph->scatterStyle();
    if (scatter.shape() != QCPScatterStyle::ssNone) {
      QPen edge = scatter.pen();
      edge.setColor(s.style.color);
      scatter.setPen(edge);
      graph->setScatterStyle(scatter);
    }
  };
  for (QCPGraph* graph : s.references) recolor(graph);
  recolor(s.heldOut);
}

void RunPlot::extendGroup(Group& g) {
  // Index i averages the members that have reached their i-th point, so a group is drawn from its first run on: run
  // one at a time, its second seed has not started while the first trains (a group that waited for every member
  // showed nothing). A member that catches up changes the points behind it, so the group is drawn anew.
  int points = 0, longest = g.members.first();
  for (int m : g.members) {
    const int n = int(runs_[m].smooth->dataCount());
    points += n;
    if (n > runs_[longest].smooth->dataCount()) longest = m;
  }
  if (points == g.done) return;
  g.done = points;
  const int count = int(runs_[longest].smooth->dataCount());
  QVector<double> steps, mean, low, high;
  for (int i = 0; i < count; ++i) {
    double sum = 0, lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
    int reached = 0;
    for (int m : g.members) {
      if (i >= runs_[m].smooth->dataCount()) continue;
      const double v = runs_[m].smooth->data()->at(i)->value;
      sum += v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      ++reached;
    }
    steps << runs_[longest].steps[i];
    mean << sum / reached;
    low << lo;
    high << hi;
  }
  g.mean->setData(steps, mean, true);
  g.low->setData(steps, low, true);
  g.high->setData(steps, high, true);
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
    if (s.heldOut) s.heldOut->setVisible(s.visible);  // a hidden run's circles went on showing (issue 79)
    if (s.point) {
      s.point->setVisible(s.visible);
      if (s.bars) s.bars->setVisible(s.visible);
    }
    if (s.interval) {
      s.interval->setVisible(s.visible);
      s.intervalBars->setVisible(s.visible);
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
