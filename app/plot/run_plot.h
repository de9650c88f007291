#pragma once
// One run's plot: the estimate per step (raw and smoothed), the true MI and each ceiling as horizontal lines.
// Used live by the window (appended on a timer) and once by the CLI.
#include <QList>
#include <QString>
#include <QVector>

#include "engine/run.h"

class QCustomPlot;
class QCPGraph;

namespace milab {

class RunPlot {
 public:
  explicit RunPlot(QCustomPlot* plot);

  // `truth`: the exact value of what the method estimates, e.g. {"I(x;y|x')", 2.1}.
  void reset(const QString& title, int steps, const NamedValue& truth, const QList<Ceiling>& ceilings);
  // A further horizontal line, e.g. the bound's value with the oracle critic once it is known.
  void addReference(const QString& label, double value);
  void append(const QVector<CurvePoint>& points);  // addData + queued replot: cheap at 30 Hz
  int pointCount() const;
  QCustomPlot* widget() const { return plot_; }

 private:
  void addLevel(const QString& label, double value, int steps, const QColor& color, Qt::PenStyle style);

  QCustomPlot* plot_;
  QCPGraph* raw_ = nullptr;
  QCPGraph* smooth_ = nullptr;
  QList<QCPGraph*> levels_;
  double ema_ = 0;
  bool emaStarted_ = false;
  double yMin_ = 0, yMax_ = 1;
  int steps_ = 1;
};

}  // namespace milab
