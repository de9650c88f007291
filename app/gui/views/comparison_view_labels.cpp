// ComparisonView's labels: each run's legend label, its seed group, and the colour its row's number is drawn in.
#include <QSet>
#include <QTableWidget>

#include "gui/comparison_set.h"
#include "gui/views/comparison_view.h"
#include "plot/palette.h"
#include "plot/run_plot.h"

namespace milab {

void ComparisonView::relabel() {
  labels_ = set_->labels();
  for (int i = 0; i < size(); ++i) plot_->setRunLabel(series_[i], labels_[i]);
  QList<QPair<QString, QList<int>>> groups = set_->seedGroups();
  // A row's number is in the colour its run is drawn in: a seed group's, its first member's (issue 79: seed 2's
  // rows had colours the legend never showed).
  QMap<int, QColor> drawnIn;
  for (const auto& group : groups)
    for (int member : group.second) drawnIn[member] = seriesStyle(group.second.first()).color;
  for (int r = 0; r < table_->rowCount(); ++r) {
    const int index = table_->item(r, kShow)->data(kIndexRole).toInt();
    table_->item(r, kShow)->setForeground(drawnIn.value(index, seriesStyle(index).color));
  }
  // A group's distinct seeds: a run repeated with its seed is one more run, not one more seed.
  const QList<RunSpec> specs = set_->specs();
  QList<int> seeds;
  for (auto& group : groups) {
    QSet<int> distinct;
    for (int& member : group.second) {
      distinct.insert(specs[member].seed);
      member = series_[member];
    }
    seeds << int(distinct.size());
  }
  plot_->setSeedGroups(groups, seeds);
}

}  // namespace milab
