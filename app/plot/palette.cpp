#include "plot/palette.h"

namespace milab {

namespace {
const QList<QColor>& colors() {
  static const QList<QColor> c{QColor("#1f77b4"), QColor("#ff7f0e"), QColor("#2ca02c"), QColor("#d62728"),
                               QColor("#9467bd"), QColor("#8c564b"), QColor("#e377c2"), QColor("#7f7f7f"),
                               QColor("#bcbd22"), QColor("#17becf"), QColor("#000080"), QColor("#a0522d"),
                               QColor("#008080"), QColor("#ff1493"), QColor("#556b2f"), QColor("#ffa500"),
                               QColor("#4b0082"), QColor("#b22222"), QColor("#00ced1"), QColor("#9acd32")};
  return c;
}
const Qt::PenStyle kLines[] = {Qt::SolidLine, Qt::DashDotLine, Qt::DotLine};
const QCPScatterStyle::ScatterShape kMarkers[] = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
                                                  QCPScatterStyle::ssTriangle};
}  // namespace

SeriesStyle seriesStyle(int index) {
  const int n = int(colors().size());
  const int round = (index / n) % 3;
  return {colors()[index % n], kLines[round], kMarkers[round]};
}

SeriesStyle overlayStyle(int index) {
  const int n = int(colors().size());
  return {colors()[n - 1 - index % n], Qt::DashLine, QCPScatterStyle::ssDiamond};
}

int distinctSeriesStyles() { return int(colors().size()) * 3; }

}  // namespace milab
