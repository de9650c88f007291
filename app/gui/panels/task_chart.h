#pragma once
// The configured task, drawn beside the task form. A task with independent dimensions (the covariate Gaussians)
// shows each dimension's share of the MI (TaskModel::breakdown: gaussian2 its MI per dimension, gaussian3 the split
// into I(x'_i;y_i) and I(x_i;y_i|x'_i) with alpha_i on the right axis); any other task a scatter of its samples.
// The totals are in the title. An image task (fashion-mnist-views) shows a strip of example views instead: x, x'
// and y of 8 images, drawn again as its augmentation keys change. A task of real items of two classes (the class
// channel) shows, under its chart, two rows of x's and y's items, each with its class bit. Updated as the task's keys
// change.
#include <QString>

#include "params/param_spec.h"

class QCustomPlot;
class QLabel;
class QSpinBox;
class QWidget;

namespace milab {

class TaskModel;
struct TaskBreakdown;
struct ItemsPreview;

class TaskChart {
 public:
  explicit TaskChart(QWidget* parent);
  QCustomPlot* widget() const { return plot_; }
  // The row under the chart that picks which x_i and y_j the scatter shows (hidden for a per-dimension chart).
  QWidget* pairPicker() const { return picker_; }
  // The strip of example views of an image task (hidden for any other task).
  QLabel* viewStrip() const { return strip_; }
  // `params` unvalidated (the form's values); an invalid configuration draws no chart and returns its error (the
  // task's settings or its data set refused), "" when the task is drawn.
  QString show(const QString& task, const ParamMap& params, int seed);
  QString title() const { return title_; }

 private:
  void showBreakdown(const TaskBreakdown& breakdown, const QString& titleSuffix);
  void showSamples(const TaskModel& model, int seed);
  void showViews(const TaskModel& model, int seed);
  // Below the chart: a few rows of a task of real items (the class channel), each item with its class bit.
  void showItems(const ItemsPreview& items);

  QCustomPlot* plot_;
  QWidget* picker_;
  QSpinBox *xColumn_, *yColumn_;
  QLabel* strip_;
  QString task_;  // what show() drew last, redrawn when the pair changes
  ParamMap params_;
  int seed_ = 1;
  QString title_;
};

}  // namespace milab
