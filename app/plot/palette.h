#pragma once
// Series styles that stay distinguishable: 20 colours (Kelly's and Glasbey's contrasting sets, readable on
// white), then each colour again with another line style and marker, so at least 60 series differ.
#include <qcustomplot.h>

#include <QColor>
#include <QPen>

namespace milab {

struct SeriesStyle {
  QColor color;
  Qt::PenStyle line = Qt::SolidLine;
  QCPScatterStyle::ScatterShape marker = QCPScatterStyle::ssCircle;
  QPen pen(double width = 2) const { return QPen(color, width, line); }
};

SeriesStyle seriesStyle(int index);
// A run overlaid from the history: dashed, a line no live run draws, in the colours taken from the far end of the
// list, so that stored and live runs never share a look (both started at the first colours: two blue curves).
SeriesStyle overlayStyle(int index);
int distinctSeriesStyles();  // how many indices give distinct styles before they repeat

}  // namespace milab
