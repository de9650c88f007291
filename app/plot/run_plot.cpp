#include "plot/run_plot.h"

#include <qcustomplot.h>

#include <algorithm>

namespace milab {

namespace {
constexpr double kSmoothing = 0.02;  // exponential moving average weight of the newest point
}

RunPlot::RunPlot(QCustomPlot* plot) : plot_(plot) {
  plot_->xAxis->setLabel("training step");
  plot_->yAxis->setLabel("mutual information (nats)");
  plot_->legend->setVisible(true);
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
  plot_->setNoAntialiasingOnDrag(true);
}

void RunPlot::addLevel(const QString& label, double value, int steps, const QColor& color, Qt::PenStyle style) {
  QCPGraph* g = plot_->addGraph();
  g->setName(QStringLiteral("%1 = %2").arg(label).arg(value, 0, 'f', 2));
  g->setPen(QPen(color, 2, style));
  g->setData({0.0, double(steps)}, {value, value});
  levels_ << g;
  yMax_ = std::max(yMax_, value);
}

void RunPlot::reset(const QString& title, int steps, const NamedValue& truth, const QList<Ceiling>& ceilings) {
  steps_ = steps;
  plot_->clearGraphs();
  plot_->clearItems();
  levels_.clear();
  emaStarted_ = false;
  yMin_ = 0;
  yMax_ = 1;
  if (plot_->plotLayout()->rowCount() > 1) plot_->plotLayout()->remove(plot_->plotLayout()->element(0, 0));
  if (plot_->plotLayout()->rowCount() == 1) plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, title, QFont("sans", 10, QFont::Bold)));

  raw_ = plot_->addGraph();
  raw_->setName("estimate (per step)");
  raw_->setPen(QPen(QColor(70, 130, 200, 90), 1));
  smooth_ = plot_->addGraph();
  smooth_->setName("estimate (moving average)");
  smooth_->setPen(QPen(QColor(20, 60, 160), 2));
  addLevel("true " + truth.name, truth.value, steps, QColor(20, 140, 60), Qt::SolidLine);
  const QList<QColor> ceilingColors{QColor(200, 40, 40), QColor(220, 120, 0), QColor(120, 40, 160)};
  for (int i = 0; i < ceilings.size(); ++i)
    addLevel(ceilings[i].name, ceilings[i].value, steps, ceilingColors[i % ceilingColors.size()], Qt::DashLine);
  plot_->xAxis->setRange(0, std::max(1, steps));
  plot_->yAxis->setRange(yMin_, yMax_ * 1.1 + 0.1);
  plot_->replot();
}

void RunPlot::append(const QVector<CurvePoint>& points) {
  if (points.isEmpty() || !raw_) return;
  QVector<double> steps, values, smoothed;
  steps.reserve(points.size());
  values.reserve(points.size());
  smoothed.reserve(points.size());
  for (const CurvePoint& p : points) {
    ema_ = emaStarted_ ? (1 - kSmoothing) * ema_ + kSmoothing * p.estimate : p.estimate;
    emaStarted_ = true;
    steps << p.step;
    values << p.estimate;
    smoothed << ema_;
    yMin_ = std::min(yMin_, p.estimate);
    yMax_ = std::max(yMax_, p.estimate);
  }
  raw_->addData(steps, values, true);
  smooth_->addData(steps, smoothed, true);
  plot_->yAxis->setRange(yMin_, yMax_ * 1.1 + 0.1);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RunPlot::addReference(const QString& label, double value) {
  addLevel(label, value, steps_, QColor(90, 90, 90), Qt::DotLine);
  plot_->yAxis->setRange(yMin_, yMax_ * 1.1 + 0.1);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int RunPlot::pointCount() const { return raw_ ? raw_->dataCount() : 0; }

}  // namespace milab
