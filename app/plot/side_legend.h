#pragma once
// A legend beside the data, never over it: in its own layout column, its entries packed at the top (a legend
// that fills a grid cell alone spreads its rows over the cell's whole height).
class QCPLegend;
class QCustomPlot;

namespace milab {

// Puts `legend` (a new one when null) at (row, column) of the plot's layout and returns it.
QCPLegend* placeSideLegend(QCustomPlot* plot, int row, int column, QCPLegend* legend = nullptr);

// A legend placed by placeSideLegend beside the plot's axis rect stays there while its widest entry leaves the data
// (1 - maxShare) of the plot's width; wider (ten runs named by what differs took 40%), it moves under the data,
// its entries read left to right in as many columns as fit, and comes back when the entries narrow again.
// Returns true when it is under the data.
bool fitSideLegend(QCustomPlot* plot, QCPLegend* legend, double maxShare = 1.0 / 3);

}  // namespace milab
