// Only the method (or a non-numeric key) varies: one bar per series with its target and ceilings.
#include <qcustomplot.h>

#include <QSet>
#include <algorithm>
#include <cmath>

#include "plot/figure_parts.h"
#include "plot/series_figures.h"

namespace milab::figure {

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

}  // namespace milab::figure
