#pragma once
// The run history in the window: every recorded run as a table (date, task, method, what differs, estimate,
// target, status), filtered by task, method, status and text, sortable; the selection can be overlaid on the plot
// beside the live runs, reopened in the form, deleted, or exported as CSV.
#include <QWidget>
#include <memory>

#include "results/run_store.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace milab {

class HistoryPanel : public QWidget {
  Q_OBJECT
 public:
  HistoryPanel(const QString& dbPath, QWidget* parent = nullptr);
  ~HistoryPanel() override;

  void refresh();  // reads the database again, keeping the filters
  const RunStore& store() const { return *store_; }
  QList<qint64> selectedIds() const;
  void select(const QList<qint64>& ids);
  int rowCount() const;
  QString exportSelection(const QString& path) const;  // "" or the error
  QString deleteSelection();

 Q_SIGNALS:
  void overlayRequested(const QList<qint64>& ids);
  void reopenRequested(qint64 id);

 private:
  std::unique_ptr<RunStore> store_;
  QComboBox* task_;
  QComboBox* method_;
  QComboBox* status_;
  QLineEdit* text_;
  QTableWidget* table_;
  QLabel* message_;
  QPushButton* overlay_;
  QPushButton* reopen_;
  QPushButton* delete_;
  QPushButton* export_;
  QList<StoredRun> shown_;
};

}  // namespace milab
