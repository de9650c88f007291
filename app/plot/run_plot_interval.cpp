// A trained finite-sample run's final reading drawn with its confidence interval over the data, at its last step.
#include <qcustomplot.h>

#include <cmath>

#include "plot/run_plot.h"
#include "results/reading_words.h"

namespace milab {

QString RunPlot::intervalName(const Series& s) const {
  // Short enough to sit beside the data at 1280 px (issue 79: the legend went under the plot and took its height).
  const QString at = s.ciStep < s.steps.last() ? QStringLiteral(", best at step %1").arg(s.ciStep) : "";
  return QStringLiteral("%1: %2 [%3, %4], %5% interval%6")
      .arg(legendName(s), number(s.ciValue, true), number(s.ciLow, true), number(s.ciHigh, true))
      .arg(s.ciLevel * 100, 0, 'g', 12)
      .arg(at);
}

void RunPlot::markInterval(Series& s, const RunResult& result) {
  const double low = readingValue(result.readings, "ci_low"), high = readingValue(result.readings, "ci_high");
  const double level = readingValue(result.readings, "ci_level");
  if (!hasEstimate(result) || !std::isfinite(low) || !std::isfinite(high)) return;
  s.ciValue = result.estimate;
  s.ciLow = low;
  s.ciHigh = high;
  s.ciLevel = level;
  // At the held-out reading the run reports (report best: the best of them, issue 79), else at its last step.
  const double reportedStep = readingValue(result.readings, "reported_step");
  s.ciStep = std::isfinite(reportedStep) && reportedStep <= s.steps.last() ? reportedStep : s.steps.last();
  s.interval = addGraph(QPen(s.style.color, 2), intervalName(s), true);
  s.interval->setLineStyle(QCPGraph::lsNone);
  s.interval->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, s.style.color, Qt::white, 11));
  s.interval->setData({s.ciStep}, {result.estimate});
  s.intervalBars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
  s.intervalBars->removeFromLegend();
  s.intervalBars->setDataPlottable(s.interval);
  s.intervalBars->setPen(QPen(s.style.color, 2));
  s.intervalBars->setWhiskerWidth(14);
  s.intervalBars->setData(QVector<double>{result.estimate - low}, QVector<double>{high - result.estimate});
  s.levels << low << high;
  updateReferenceLegend();
  updateVisibility();
}

}  // namespace milab
