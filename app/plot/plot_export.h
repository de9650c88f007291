#pragma once
#include <QString>

class QCustomPlot;

namespace milab {

// Writes the plot to `path`, the format taken from its suffix: png, pdf or svg. Returns "" or an error line.
QString exportPlot(QCustomPlot* plot, const QString& path, int width = 900, int height = 600);

}  // namespace milab
