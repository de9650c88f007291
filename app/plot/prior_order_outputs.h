#pragma once
// A prior-order sweep's files, the same from the window and the runner: OUT/prior_orders.csv, OUT/summary.json
// and OUT/prior_orders.{png,pdf,svg}.
#include <QString>
#include <QStringList>

#include "engine/prior_order_sweep.h"

namespace milab {

QString priorOrderPlotTitle(const PriorOrderSweepSpec& spec);
QStringList writePriorOrderOutputs(const QString& outDir, const PriorOrderSweepSpec& spec,
                                   const PriorOrderSweep& sweep);  // error lines, or none

}  // namespace milab
