#pragma once
// The AMMI paper's Figure 1(a): cross entropy H+(Z) against the prior's Markov order r (the closed-form best
// order-r prior, and AMMI's prior fitted by Adam), with the brute-force entropy H(Z) and m log 2 as lines.
#include "engine/prior_order_sweep.h"

class QCustomPlot;

namespace milab {

// Clears `plot` and draws the sweep on it.
void drawPriorOrderPlot(QCustomPlot* plot, const PriorOrderSweep& sweep, const QString& title);

}  // namespace milab
