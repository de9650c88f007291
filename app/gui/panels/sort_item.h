#pragma once
// A table cell that sorts by a number when it has one (kSortRole), by its text otherwise: "1.234 ± 0.010" sorts
// by 1.234, a date by the run's id. Shared by the set's results table and the History panel.
#include <QTableWidgetItem>

namespace milab {

constexpr int kSortRole = Qt::UserRole + 2;

class SortItem : public QTableWidgetItem {
 public:
  using QTableWidgetItem::QTableWidgetItem;
  bool operator<(const QTableWidgetItem& other) const override {
    const QVariant a = data(kSortRole), b = other.data(kSortRole);
    if (a.isValid() && b.isValid()) return a.toDouble() < b.toDouble();
    return QTableWidgetItem::operator<(other);
  }
};

}  // namespace milab
