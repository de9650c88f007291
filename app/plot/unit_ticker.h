#pragma once
// The y axis of a plot whose data are in nats, labelled in the units the reader chose (results/display_units.h):
// ticks at round numbers of bits where bits are shown, the data left as they are. QCustomPlot's own ticker picks
// the steps and writes the labels, on the range in the shown units.
#include <qcustomplot.h>

#include "results/display_units.h"

namespace milab {

class UnitTicker : public QCPAxisTicker {
 public:
  explicit UnitTicker(Units units) : shownPerNat_(inUnits(1.0, units)) {}
  void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
                QVector<double>* subTicks, QVector<QString>* tickLabels) override;

 private:
  double shownPerNat_;
};

}  // namespace milab
