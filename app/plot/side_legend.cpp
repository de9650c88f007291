#include "plot/side_legend.h"

#include <qcustomplot.h>

#include <algorithm>

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

bool fitSideLegend(QCustomPlot* plot, QCPLegend* legend, double maxShare) {
  QCPLayoutGrid* layout = plot->plotLayout();
  int row = -1;  // the axis rect's: the side cell is beside it, the place below under it
  for (int r = 0; r < layout->rowCount(); ++r)
    if (layout->element(r, 0) == plot->axisRect()) row = r;
  auto* side = row < 0 ? nullptr : qobject_cast<QCPLayoutGrid*>(layout->element(row, 1));
  if (!side) return false;
  int widest = 0, items = 0, itemHeight = 0;
  for (int i = 0; i < legend->itemCount(); ++i)
    if (QCPAbstractLegendItem* item = legend->item(i)) {  // a wrapped legend's grid has empty cells
      widest = std::max(widest, item->minimumOuterSizeHint().width());
      itemHeight = std::max(itemHeight, item->minimumOuterSizeHint().height() + legend->rowSpacing());
      ++items;
    }
  const QMargins m = legend->margins();
  const int besideWidth = widest + m.left() + m.right() + 8;  // the frame, the cell's margin
  const int width = plot->viewport().width(), height = plot->viewport().height();
  const QMargins axes = plot->axisRect()->margins();
  const int columnsBelow = std::clamp(std::max(1, width - axes.left() - axes.right()) /
                                          std::max(1, widest + legend->columnSpacing()),
                                      1, 4);
  const int heightBelow = (items + columnsBelow - 1) / columnsBelow * itemHeight + m.top() + m.bottom() + 6;
  const int heightBeside = items * itemHeight + m.top() + m.bottom();
  // Under the data when it is too wide beside them, unless there it would take a quarter of a short plot's height
  // and beside them it fits (issue 79: at 1280 x 720 a set's legend under the plot left the data 60 px).
  const bool tooWide = besideWidth > maxShare * width;
  const bool tallBelow = heightBelow > height / 4 && heightBeside <= height - 40 && besideWidth <= width / 2;
  const bool below = tooWide && !tallBelow;
  if (below) {
    if (legend->layout() == side) {
      side->take(legend);
      auto* cell = new QCPLayoutGrid;  // its margins keep the frame inside the image
      cell->setMargins(QMargins(4, 2, 4, 4));
      layout->insertRow(row + 1);
      layout->addElement(row + 1, 0, cell);
      layout->setRowStretchFactor(row + 1, 0.001);  // as tall as its rows
      cell->addElement(0, 0, legend);
    }
    // As many columns as the data's width takes once the side column is gone.
    const int columns = columnsBelow;
    if (legend->wrap() != columns || legend->fillOrder() != QCPLayoutGrid::foColumnsFirst) {  // refreshes are 30 Hz
      legend->setWrap(columns);
      legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
  } else if (legend->layout() != side) {
    QCPLayout* cell = legend->layout();  // the frame's margins, under the data
    cell->take(legend);
    layout->remove(cell);
    layout->simplify();  // the emptied row goes
    side->addElement(0, 0, legend);
    legend->setWrap(0);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
  }
  return below;
}

}  // namespace milab
