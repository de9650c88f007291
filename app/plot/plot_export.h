#pragma once
// A plot written to a file, the format by suffix (png, pdf, svg): how the window and milab-cli export figures.
#include <QString>

class QCustomPlot;

namespace milab {

// Writes the plot to `path`, the format taken from its suffix: png, pdf or svg. Returns "" or an error line.
QString exportPlot(QCustomPlot* plot, const QString& path, int width = 900, int height = 600);

}  // namespace milab
