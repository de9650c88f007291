#pragma once
// The run history in the window: every recorded run as a table (date, task, method, what differs, estimate,
// target, status), filtered by task, method, status and text, sortable; the selection can be overlaid on the plot
// beside the live runs, reopened in the form, deleted, or exported as CSV. It follows the database: a run or grid
// cell recorded by this window or by another process shows within a poll, and a database that cannot be read is
// said in red under the table (and to the window, storeFailed), the rows last read staying shown.
#include <QWidget>
#include <memory>

#include "results/run_store.h"
#include "results/display_units.h"

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
  void setUnits(Units units);  // the estimates and targets shown in nats or bits (the database keeps nats)
  // How often the database is asked whether a run was recorded or deleted (by anyone).
  static constexpr int kPollMs = 1000;
  const RunStore& store() const { return *store_; }
  QList<qint64> selectedIds() const;
  void select(const QList<qint64>& ids);
  int rowCount() const;
  QString exportSelection(const QString& path) const;  // "" or the error
  QString deleteSelection();

 Q_SIGNALS:
  void storeFailed(const QString& why);  // once each time the database stops being readable
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
  Units units_ = Units::Nats;
  QList<StoredRun> shown_;
  QString shownStamp_;  // the database's change stamp when the table was last read
  QString failure_;     // why the database cannot be read now; "" when it can

  void pollForChanges();
  void showFailure(const QString& why);
};

}  // namespace milab
