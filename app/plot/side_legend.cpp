#include "plot/side_legend.h"

#include <qcustomplot.h>

namespace milab {

QCPLegend* placeSideLegend(QCustomPlot* plot, int row, int column, QCPLegend* legend) {
  if (!legend) legend = new QCPLegend;
  auto* cell = new QCPLayoutGrid;
  plot->plotLayout()->addElement(row, column, cell);
  cell->addElement(0, 0, legend);
  cell->addElement(1, 0, new QCPLayoutElement(plot));  // takes the height the entries leave
  cell->setRowStretchFactor(0, 0.001);
  cell->setRowStretchFactor(1, 1);
  // The legend's frame is drawn on its outer edge: at the plot's right edge it would fall outside the image.
  cell->setMargins(QMargins(0, 0, 4, 0));
  legend->setLayer("legend");
  legend->setFont(QFont("sans", 8));
  legend->setBorderPen(QPen(QColor(180, 180, 180)));
  legend->setRowSpacing(1);
  plot->plotLayout()->setColumnStretchFactor(column, 0.001);  // as narrow as its entries allow
  return legend;
}

}  // namespace milab
