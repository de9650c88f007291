#pragma once
// A legend beside the data, never over it: in its own layout column, its entries packed at the top (a legend
// that fills a grid cell alone spreads its rows over the cell's whole height).
class QCPLegend;
class QCustomPlot;

namespace milab {

// Puts `legend` (a new one when null) at (row, column) of the plot's layout and returns it.
QCPLegend* placeSideLegend(QCustomPlot* plot, int row, int column, QCPLegend* legend = nullptr);

}  // namespace milab
