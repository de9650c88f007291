// Several K: one panel per MI, estimate against K (the DEMI paper's Figure 2 layout).
#include <qcustomplot.h>

#include <QSet>
#include <algorithm>
#include <cmath>

#include "plot/figure_parts.h"
#include "plot/series_figures.h"
#include "tasks/shared_task_options.h"

namespace milab::figure {

// Several K: one panel per MI, estimate against K.
FigureSize drawVsK(QCustomPlot* plot, const QList<const FigureRun*>& runs, const LabelKeys& differing) {
  QList<double> mis, ks;
  for (const FigureRun* r : runs) {
    const double mi = SharedTaskOptions::from(r->spec.taskParams).mi.value_or(0);
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

}  // namespace milab::figure
