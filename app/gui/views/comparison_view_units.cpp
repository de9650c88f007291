// The units ComparisonView shows readings in: its table's numbers and estimate header, and its plot's.
#include <QTableWidget>

#include "gui/views/comparison_view.h"
#include "plot/run_plot.h"

namespace milab {

// The table's headers, the estimate's naming the units shown.
QStringList ComparisonView::headerLabels(Units units) {
  return {QObject::tr("show"),
          QObject::tr("method"),
          QObject::tr("differs"),
          QObject::tr("estimate (%1)").arg(unitName(units)),
          QObject::tr("target"),
          QObject::tr("ceiling"),
          QObject::tr("estimate − target"),
          QObject::tr("steps/s"),
          QObject::tr("status")};
}

// Three decimals: nats read to the thousandth, and bits alike.
QString ComparisonView::cellNumber(double nats) const { return QString::number(inUnits(nats, units_), 'f', 3); }

void ComparisonView::setUnits(Units units) {
  units_ = units;
  plot_->setUnits(units);
  // The header's tooltip stays: the labels are set again, not the items.
  const QStringList labels = headerLabels(units);
  for (int c = 0; c < table_->columnCount(); ++c) table_->horizontalHeaderItem(c)->setText(labels[c]);
  refreshTable();
}

}  // namespace milab
