#include "plot/figure_title.h"

#include <qcustomplot.h>

namespace milab {

void resetWithTitle(QCustomPlot* plot, const QString& title) {
  plot->clearPlottables();
  plot->clearItems();
  if (plot->plotLayout()->rowCount() > 1) plot->plotLayout()->removeAt(0);  // an earlier title
  plot->plotLayout()->simplify();
  plot->plotLayout()->insertRow(0);
  plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title, QFont("sans", 10, QFont::Bold)));
}

}  // namespace milab
