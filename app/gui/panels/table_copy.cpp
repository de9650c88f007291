#include "gui/panels/table_copy.h"

#include <QApplication>
#include <QClipboard>
#include <QKeyEvent>
#include <QStringList>
#include <QTableWidget>
#include <set>

namespace milab {

namespace {

// A tab or a line break inside a cell would split it: pasted, every cell stays in its column.
QString cellText(const QString& text) {
  QString t = text;
  return t.replace('\t', ' ').replace('\n', ' ');
}

class CopyFilter : public QObject {
 public:
  explicit CopyFilter(QTableWidget* table) : QObject(table), table_(table) {}
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (watched == table_ && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
      const QString text = selectedRowsAsText(*table_);
      if (!text.isEmpty()) QApplication::clipboard()->setText(text);
      return true;  // the view's own Copy would put one cell there
    }
    return QObject::eventFilter(watched, event);
  }

 private:
  QTableWidget* table_;
};

}  // namespace

QString selectedRowsAsText(const QTableWidget& table) {
  std::set<int> rows;  // in the order shown: the view's rows are its sorted order
  for (const QModelIndex& i : table.selectionModel()->selectedIndexes()) rows.insert(i.row());
  if (rows.empty()) return {};
  QList<int> columns;
  for (int c = 0; c < table.columnCount(); ++c)
    if (!table.isColumnHidden(c)) columns << c;
  QStringList lines, header;
  for (int c : columns) {
    const QTableWidgetItem* h = table.horizontalHeaderItem(c);
    header << cellText(h ? h->text() : QString::number(c + 1));
  }
  lines << header.join('\t');
  for (int r : rows) {
    QStringList cells;
    for (int c : columns) {
      const QTableWidgetItem* item = table.item(r, c);
      cells << cellText(item ? item->text() : QString());
    }
    lines << cells.join('\t');
  }
  return lines.join('\n') + '\n';
}

void copySelectedRowsOnCopy(QTableWidget* table) { table->installEventFilter(new CopyFilter(table)); }

}  // namespace milab
