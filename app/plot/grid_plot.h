#pragma once
// A grid's summary plot, in the style of the DEMI paper's Figure 2: one panel per true MI, estimate against
// K on a log scale, one line per method (mean over seeds, error bars: the spread over seeds, or the cell's
// standard error with one seed), the true value and the ceilings log K, 2 log(K/2) and 2 log K over the K range.
#include <QList>

#include "results/grid_files.h"

class QCustomPlot;

namespace milab {

// Clears `plot` and draws the grid on it. Returns the number of panels.
int drawGridPlot(QCustomPlot* plot, const QList<CellResult>& cells);

}  // namespace milab
