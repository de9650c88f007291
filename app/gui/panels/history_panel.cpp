#include "gui/panels/history_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QTextStream>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "engine/run_set.h"
#include "gui/counted.h"
#include "gui/file_dialogs.h"
#include "gui/panels/sort_item.h"
#include "gui/panels/table_copy.h"
#include "gui/run_details.h"
#include "results/reading_words.h"
#include "results/run_files.h"

namespace milab {

namespace {

enum HistoryColumn {
  kDateColumn,
  kTaskColumn,
  kMethodColumn,
  kDiffersColumn,
  kEstimateColumn,
  kTargetColumn,
  kStatusColumn,
  kColumnCount
};
constexpr int kIdRole = Qt::UserRole + 1;
constexpr int kShownRuns = 1000;  // the newest; filters narrow the rest

QComboBox* filterBox(const QString& name, QWidget* parent) {
  auto* box = new QComboBox(parent);
  box->setObjectName(name);
  box->addItem(QObject::tr("any"), QString());
  return box;
}

}  // namespace

HistoryPanel::HistoryPanel(const QString& dbPath, QWidget* parent)
    : QWidget(parent),
      store_(std::make_unique<RunStore>(dbPath)),
      task_(filterBox("historyTask", this)),
      method_(filterBox("historyMethod", this)),
      status_(filterBox("historyStatus", this)),
      text_(new QLineEdit(this)),
      table_(new QTableWidget(0, kColumnCount, this)),
      message_(new QLabel(this)),
      overlay_(new QPushButton(tr("Overlay on the plot"), this)),
      reopen_(new QPushButton(tr("Reopen in the form"), this)),
      delete_(new QPushButton(tr("Delete"), this)),
      export_(new QPushButton(tr("Export CSV..."), this)) {
  text_->setObjectName("historyText");
  text_->setPlaceholderText(tr("text in the experiment, reason or folder"));
  table_->setObjectName("historyTable");
  message_->setObjectName("historyMessage");
  message_->setWordWrap(true);
  overlay_->setObjectName("historyOverlay");
  reopen_->setObjectName("historyReopen");
  delete_->setObjectName("historyDelete");
  export_->setObjectName("historyExport");
  for (const QString& s : {"finished", "cancelled", "failed"}) status_->addItem(s, s);

  table_->setHorizontalHeaderLabels({tr("ended"), tr("task"), tr("method"), tr("differs"),
                                     tr("estimate (%1)").arg(unitName(units_)), tr("target"), tr("status")});
  table_->horizontalHeaderItem(kEstimateColumn)
      ->setToolTip(tr("A finite set's reading with its confidence interval over the data [low, high]; a fresh-batch "
                      "reading with its standard error (±); a bare number, a reading with no spread measured"));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  copySelectedRowsOnCopy(table_);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  // A double click opens the run's whole record: a failed run's reason, cut in its cell, is there whole (issue 79).
  connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    const qint64 id = table_->item(row, 0)->data(kIdRole).toLongLong();
    for (const StoredRun& r : shown_)
      if (r.id == id)
        openRunDetails(this, tr("Run %1").arg(id),
                       {{QStringLiteral("run %1: %2 on %3, %4").arg(id).arg(r.method, r.task, r.status), r.reason,
                         storedRunJson(r)}});
  });
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);

  auto* filters = new QHBoxLayout;
  filters->addWidget(new QLabel(tr("task"), this));
  filters->addWidget(task_);
  filters->addWidget(new QLabel(tr("method"), this));
  filters->addWidget(method_);
  filters->addWidget(new QLabel(tr("status"), this));
  filters->addWidget(status_);
  filters->addWidget(text_, 1);
  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {overlay_, reopen_, delete_, export_}) buttons->addWidget(b);
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(filters);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);
  layout->addWidget(message_);

  for (QComboBox* box : {task_, method_, status_})
    connect(box, &QComboBox::currentIndexChanged, this, &HistoryPanel::refresh);
  connect(text_, &QLineEdit::textChanged, this, &HistoryPanel::refresh);
  connect(overlay_, &QPushButton::clicked, this, [this] {
    if (!selectedIds().isEmpty()) Q_EMIT overlayRequested(selectedIds());
  });
  connect(reopen_, &QPushButton::clicked, this, [this] {
    if (!selectedIds().isEmpty()) Q_EMIT reopenRequested(selectedIds().first());
  });
  connect(delete_, &QPushButton::clicked, this, [this] {
    if (selectedIds().isEmpty()) return;
    if (QMessageBox::question(this, tr("Delete runs"),
                              tr("Delete %1 from the history?").arg(counted(selectedIds().size(), "run"))) ==
        QMessageBox::Yes)
      if (const QString err = deleteSelection(); !err.isEmpty()) message_->setText(err);
  });
  connect(export_, &QPushButton::clicked, this, [this] {
    const QString path = askSaveFile(this, tr("Export runs"), "history.csv", tr("CSV table (*.csv)"));
    if (path.isEmpty()) return;
    const QString err = exportSelection(path);
    message_->setText(err.isEmpty() ? tr("Wrote %1 to %2").arg(counted(selectedIds().size(), "run"), path) : err);
  });
  auto* poll = new QTimer(this);
  poll->setInterval(kPollMs);
  connect(poll, &QTimer::timeout, this, &HistoryPanel::pollForChanges);
  poll->start();
  refresh();
  if (!failure_.isEmpty())  // said again once the window has connected to storeFailed
    QTimer::singleShot(0, this, [this] { Q_EMIT storeFailed(failure_); });
}

HistoryPanel::~HistoryPanel() = default;

void HistoryPanel::pollForChanges() {
  const QString stamp = store_->changeStamp();
  if (stamp.isEmpty())
    showFailure(store_->error());
  else if (stamp != shownStamp_ || !failure_.isEmpty())
    refresh();
}

void HistoryPanel::showFailure(const QString& why) {
  message_->setStyleSheet(QStringLiteral("color: #b00020;"));
  message_->setText(why + tr(": the history cannot be read or written now; runs still write their files"));
  if (why == failure_) return;
  failure_ = why;
  Q_EMIT storeFailed(why);
}

void HistoryPanel::setUnits(Units units) {
  units_ = units;
  table_->horizontalHeaderItem(kEstimateColumn)->setText(tr("estimate (%1)").arg(unitName(units_)));
  refresh();
}

void HistoryPanel::refresh() {
  // A poll refreshes whenever any process records a run: the rows the user selected stay selected.
  const QList<qint64> selected = selectedIds();
  // The filter boxes offer what the history holds.
  const QString stamp = store_->changeStamp();
  const QList<StoredRun> all = store_->list({});
  if (!store_->error().isEmpty()) return showFailure(store_->error());
  for (auto [box, field] :
       {std::pair<QComboBox*, QString StoredRun::*>{task_, &StoredRun::task}, {method_, &StoredRun::method}}) {
    for (const StoredRun& r : all)
      if (box->findData(r.*field) < 0) {
        const QSignalBlocker block(box);
        box->addItem(r.*field, r.*field);
      }
  }
  HistoryFilter filter;
  filter.task = task_->currentData().toString();
  filter.method = method_->currentData().toString();
  filter.status = status_->currentData().toString();
  filter.text = text_->text().trimmed();
  filter.limit = kShownRuns;
  const QList<StoredRun> shown = store_->list(filter);
  if (!store_->error().isEmpty()) return showFailure(store_->error());
  shown_ = shown;
  shownStamp_ = stamp;
  failure_.clear();
  QList<QVariantMap> flats;
  for (const StoredRun& r : shown_) flats << r.spec.toVariantMap();
  const QStringList differing = differingKeys(flats);

  table_->setSortingEnabled(false);
  table_->setRowCount(int(shown_.size()));
  for (int row = 0; row < shown_.size(); ++row) {
    const StoredRun& r = shown_[row];
    QStringList differs;
    const QVariantMap flat = r.spec.toVariantMap();
    for (const QString& k : keysTheRunReads(differing, flat)) differs << keyValueText(k, flat.value(k));
    const QString warning = r.summary.value("warning").toString();  // "" for a run of schema 1
    // The interval over the data (summary.json's readings) or the standard error, whichever the run measured.
    constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    const auto amount = [this](double nats) { return QString::number(inUnits(nats, units_), 'f', 3); };
    const QString spread = spreadInWords(r.stderror.value_or(kNone), r.summary.value("ci_low").toDouble(kNone),
                                         r.summary.value("ci_high").toDouble(kNone), amount);
    const QStringList texts{
        r.ended.toString("yyyy-MM-dd hh:mm:ss"),
        r.task,
        r.method,
        differs.join(' '),
        r.estimate ? amount(*r.estimate) + spread : QString(),
        std::isnan(r.trueValue) ? r.targetName + " unknown"  // a table's truth
                                : QStringLiteral("%1 = %2").arg(
                                      r.targetName,
                                      truthInWords(r.trueValue, r.summary.value("true_mi_stderr").toDouble(), amount,
                                                   QStringLiteral("±"))),
        (r.reason.isEmpty() ? r.status : r.status + ": " + r.reason) +
            (warning.isEmpty() ? QString() : QStringLiteral(" (warning: %1)").arg(warning))};
    for (int c = 0; c < kColumnCount; ++c) {
      auto* item = new SortItem(texts[c]);
      item->setToolTip(texts[c]);  // whole, where the column cuts it
      item->setData(kIdRole, r.id);
      if (c == kDateColumn) item->setData(kSortRole, double(r.id));
      if (c == kEstimateColumn && r.estimate) item->setData(kSortRole, *r.estimate);
      if (c == kTargetColumn) item->setData(kSortRole, r.trueValue);
      table_->setItem(row, c, item);
    }
  }
  table_->setSortingEnabled(true);
  if (!selected.isEmpty()) select(selected);
  message_->setStyleSheet({});
  message_->setText(tr("%1 shown, from %2").arg(counted(shown_.size(), "run"), store_->path()));
}

QList<qint64> HistoryPanel::selectedIds() const {
  QList<qint64> ids;
  for (const QModelIndex& m : table_->selectionModel()->selectedRows())
    ids << table_->item(m.row(), 0)->data(kIdRole).toLongLong();
  return ids;
}

void HistoryPanel::select(const QList<qint64>& ids) {
  table_->clearSelection();
  table_->setSelectionMode(QAbstractItemView::MultiSelection);
  for (int row = 0; row < table_->rowCount(); ++row)
    if (ids.contains(table_->item(row, 0)->data(kIdRole).toLongLong())) table_->selectRow(row);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
}

int HistoryPanel::rowCount() const { return table_->rowCount(); }

QString HistoryPanel::exportSelection(const QString& path) const {
  const QList<qint64> ids = selectedIds();
  if (ids.isEmpty()) return tr("export: select the runs to export first");
  QByteArray bytes;
  QTextStream out(&bytes);
  out.setRealNumberPrecision(10);
  out << "id,ended,task,method,status,estimate,stderr,target,true_value,steps_done,seconds,origin,reason,experiment\n";
  for (const StoredRun& r : shown_) {
    if (!ids.contains(r.id)) continue;
    out << r.id << ',' << r.ended.toString(Qt::ISODate) << ',' << csvField(r.task) << ',' << csvField(r.method) << ','
        << r.status << ',';
    if (r.estimate)
      out << *r.estimate << ',' << *r.stderror;  // a failed run has no estimate: empty fields
    else
      out << ',';
    out << ',' << csvField(r.targetName) << ',';
    if (!std::isnan(r.trueValue)) out << r.trueValue;  // a table's unknown truth: an empty field
    out << ',' << r.stepsDone << ',' << r.seconds << ',' << csvField(r.origin) << ',' << csvField(r.reason) << ','
        << csvField(QString::fromUtf8(QJsonDocument(r.spec).toJson(QJsonDocument::Compact))) << '\n';
  }
  out.flush();
  return saveAtomically(path, bytes);
}

QString HistoryPanel::deleteSelection() {
  const QList<qint64> ids = selectedIds();
  const QString err = store_->remove(ids);
  refresh();
  return err;
}

}  // namespace milab
