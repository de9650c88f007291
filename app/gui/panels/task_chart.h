#pragma once
// The configured covariate Gaussians, drawn beside the task form: each dimension's share of the MI (gaussian2:
// its correlation rho and MI; gaussian3: the split of each dimension's MI into I(x'_i;y_i) and I(x_i;y_i|x'_i),
// with alpha_i on the right axis), and the totals in the title. Updated as dim, mi and alpha change.
#include <QString>

#include "params/param_spec.h"

class QCustomPlot;
class QWidget;

namespace milab {

class TaskChart {
 public:
  explicit TaskChart(QWidget* parent);
  QCustomPlot* widget() const { return plot_; }
  // `params` unvalidated (the form's values); an invalid configuration shows its error instead.
  void show(const QString& task, const ParamMap& params, int seed);
  QString title() const { return title_; }

 private:
  QCustomPlot* plot_;
  QString title_;
};

}  // namespace milab
