#pragma once
// A one-plot figure redrawn in place (the prior-order sweep, hashing, and their waiting state): its plottables and
// items cleared and its title row replaced, so that drawing it again never stacks a second title.
#include <QString>

class QCustomPlot;

namespace milab {

void resetWithTitle(QCustomPlot* plot, const QString& title);

}  // namespace milab
