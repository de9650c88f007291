// RunPlot's units: the y axis's label and ticks, and the legend's numbers, in nats or bits (the data stay in nats).
#include <qcustomplot.h>

#include "plot/run_plot.h"
#include "plot/unit_ticker.h"

namespace milab {

QString RunPlot::number(double nats, bool fine) const { return QString::number(inUnits(nats, units_), 'f', fine ? 3 : 2); }

QString RunPlot::pointName(const Series& s) const {
  // Short enough to sit beside the data at 1280 px (issue 79); three decimals, so a small error never reads "± 0.00".
  return legendName(s) + (s.pointSpread ? QStringLiteral(": %1 ± %2 (no training; bar 1 stderr)")
                                              .arg(number(s.pointValue, true), number(s.pointError, true))
                                        : QStringLiteral(": %1 (no training; one reading, no stderr)")
                                              .arg(number(s.pointValue, true)));
}

void RunPlot::nameInUnits(QCPAbstractPlottable* graph, std::function<QString()> name) {
  graph->setName(name());
  numberedNames_ << NumberedName{graph, std::move(name)};
}

void RunPlot::showYLabel() { plot_->yAxis->setLabel(QStringLiteral("%1 (%2)").arg(yLabel_, unitName(units_))); }

void RunPlot::setUnits(Units units) {
  units_ = units;
  plot_->yAxis->setTicker(QSharedPointer<UnitTicker>::create(units_));
  showYLabel();
  for (const NumberedName& n : numberedNames_) n.graph->setName(n.name());
  for (const Series& s : runs_) {
    if (s.point) s.point->setName(pointName(s));
    if (s.interval) s.interval->setName(intervalName(s));
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace milab
