#include "gui/panels/task_chart.h"

#include <qcustomplot.h>

#include <cmath>

#include "tasks/task_catalog.h"

namespace milab {

TaskChart::TaskChart(QWidget* parent) : plot_(new QCustomPlot(parent)) {
  plot_->setObjectName("taskChart");
  plot_->setMinimumHeight(170);
  plot_->setMaximumHeight(200);
  plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, "", QFont("sans", 8, QFont::Bold)));
  // The key is one row between the title and the bars, never over them.
  plot_->legend->setVisible(true);
  plot_->legend->setFont(QFont("sans", 7));
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setMargins(QMargins(0, 0, 0, 0));
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  plot_->plotLayout()->insertRow(1);
  plot_->plotLayout()->addElement(1, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(1, 0.001);
  plot_->xAxis->setLabel("dimension");
  plot_->yAxis->setLabel("nats");
  for (QCPAxis* a : {plot_->xAxis, plot_->yAxis, plot_->yAxis2}) {
    a->setLabelFont(QFont("sans", 7));
    a->setTickLabelFont(QFont("sans", 7));
  }
}

void TaskChart::show(const QString& task, const ParamMap& params, int seed) {
  plot_->clearPlottables();
  plot_->yAxis2->setVisible(false);
  const TaskInfo* info = findTask(task);
  ParamMap checked = params;
  const QString err = info ? validateTaskParams(*info, &checked) : QStringLiteral("task: unknown");
  auto* titleElement = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0));
  if (!err.isEmpty()) {
    title_ = err;
    titleElement->setText(err);
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  const GaussianModel model = buildTask(task, checked, static_cast<std::uint64_t>(seed));
  const auto& dims = model.dims();
  QVector<double> x, shareSub, shareCond, alpha;
  for (int i = 0; i < int(dims.size()); ++i) {
    x << i + 1;
    shareSub << dims[i].alpha * dims[i].mi;  // I(x'_i; y_i) = alpha_i mi_i by construction
    shareCond << (1.0 - dims[i].alpha) * dims[i].mi;
    alpha << dims[i].alpha;
  }
  const QString schedule = numberListValues(checked.value("mi_schedule")).isEmpty()
                               ? QString()
                               : QStringLiteral(", at the staircase's last level");
  if (model.hasSubview()) {
    title_ = QStringLiteral("I(x,x';y) = %1 = I(x';y) %2 + I(x;y|x') %3 nats\nsplit per dimension%4")
                 .arg(model.totalMi(), 0, 'f', 2)
                 .arg(model.subviewMi(), 0, 'f', 2)
                 .arg(model.conditionalMi(), 0, 'f', 2)
                 .arg(schedule);
    auto* sub = new QCPBars(plot_->xAxis, plot_->yAxis);
    sub->setName("I(x'_i;y_i)");
    sub->setData(x, shareSub, true);
    sub->setBrush(QColor(31, 119, 180, 200));
    sub->setPen(Qt::NoPen);
    auto* cond = new QCPBars(plot_->xAxis, plot_->yAxis);
    cond->setName("I(x_i;y_i|x'_i)");
    cond->setData(x, shareCond, true);
    cond->setBrush(QColor(255, 127, 14, 200));
    cond->setPen(Qt::NoPen);
    cond->moveAbove(sub);
    plot_->yAxis2->setVisible(true);
    plot_->yAxis2->setRange(0, 1);
    plot_->yAxis2->setLabel("alpha_i");
    QCPGraph* a = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    a->setName("alpha_i (right)");
    a->setData(x, alpha, true);
    a->setLineStyle(QCPGraph::lsNone);
    a->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, Qt::black, 4));
  } else {
    title_ = QStringLiteral("I(x;y) = %1 nats\ncorr(x_i, y_i) = %2 in each of %3 dimensions%4")
                 .arg(model.totalMi(), 0, 'f', 2)
                 .arg(dims.front().c, 0, 'f', 4)
                 .arg(dims.size())
                 .arg(schedule);
    auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars->setName("I(x_i;y_i)");
    bars->setData(x, QVector<double>(int(dims.size()), dims.front().mi), true);
    bars->setBrush(QColor(31, 119, 180, 200));
    bars->setPen(Qt::NoPen);
  }
  titleElement->setText(title_);
  plot_->legend->setVisible(model.hasSubview());  // one series needs no key
  plot_->xAxis->setRange(0.4, dims.size() + 0.6);
  plot_->rescaleAxes(true);
  plot_->xAxis->setRange(0.4, dims.size() + 0.6);
  plot_->yAxis->setRange(0, plot_->yAxis->range().upper * 1.1);
  if (model.hasSubview()) plot_->yAxis2->setRange(0, 1);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace milab
