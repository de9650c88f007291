// Several MI values: one panel, each estimate against the true value of what its method estimates.
#include <qcustomplot.h>

#include <QSet>
#include <algorithm>
#include <cmath>

#include "plot/figure_parts.h"
#include "plot/series_figures.h"

namespace milab::figure {

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

}  // namespace milab::figure
