#include "gui/views/comparison_view.h"

#include <qcustomplot.h>

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/run_set.h"
#include "engine/staircase.h"
#include "gui/comparison_set.h"
#include "gui/panels/sort_item.h"
#include "gui/panels/table_copy.h"
#include "method/method_registry.h"
#include "plot/experiment_figure.h"
#include "plot/plot_export.h"
#include "plot/run_plot.h"
#include "results/reading_words.h"
#include "tasks/shared_task_options.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

constexpr qint64 kTableRefreshMs = 250;       // the table's numbers change slower than the eye reads them
constexpr qint64 kFigureRefreshMs = 1000;     // a staircase figure follows its runs live, once a second

}  // namespace

ComparisonView::ComparisonView(const MethodRegistry& registry, QWidget* parent)
    : QWidget(parent),
      set_(std::make_unique<ComparisonSet>(registry, std::max(1, QThread::idealThreadCount() - 1))),
      plotWidget_(new QCustomPlot(this)),
      plot_(std::make_unique<RunPlot>(plotWidget_)),
      figure_(new QCustomPlot(this)),
      tabs_(new QTabWidget(this)),
      table_(new QTableWidget(0, kColumns, this)),
      smoothing_(new QSpinBox(this)),
      jobs_(new QSpinBox(this)),
      resetView_(new QPushButton(tr("Reset view"), this)),
      stopSelected_(new QPushButton(tr("Stop selected"), this)),
      clear_(new QPushButton(tr("Clear set"), this)) {
  plotWidget_->setObjectName("runPlot");
  figure_->setObjectName("setFigure");
  table_->setObjectName("runTable");
  smoothing_->setObjectName("smoothingSpin");
  jobs_->setObjectName("jobsSpin");
  resetView_->setObjectName("resetViewButton");
  stopSelected_->setObjectName("stopSelectedButton");
  clear_->setObjectName("clearSetButton");
  tabs_->setObjectName("setTabs");

  smoothing_->setRange(1, 100000);
  smoothing_->setValue(plot_->smoothingWindow());
  smoothing_->setSuffix(tr(" steps"));
  smoothing_->setToolTip(tr("The smoothed curve is the mean of the estimates of the last N training steps"));
  jobs_->setRange(1, 64);
  jobs_->setValue(set_->jobs());
  jobs_->setToolTip(tr("Runs that train at once (one core each); the others wait in the queue"));
  resetView_->setToolTip(
      tr("Fit the axes to the data again (also: double click the plot). Drag pans, the wheel zooms."));

  table_->setHorizontalHeaderLabels(headerLabels(units_));
  table_->horizontalHeaderItem(kEstimate)->setToolTip(
      tr("A finite set's reading with its confidence interval over the data [low, high] (the ci key's level); a "
         "fresh-batch reading with its standard error over the batches (±); a bare number, a reading with no "
         "spread measured"));
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  copySelectedRowsOnCopy(table_);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);

  tabs_->addTab(plotWidget_, tr("Curves"));
  tabs_->addTab(figure_, tr("Figure"));
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Smoothing window:"), this));
  controls->addWidget(smoothing_);
  controls->addWidget(resetView_);
  controls->addStretch(1);
  controls->addWidget(new QLabel(tr("Runs at once:"), this));
  controls->addWidget(jobs_);
  controls->addWidget(stopSelected_);
  controls->addWidget(clear_);
  auto* top = new QWidget(this);
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(tabs_, 1);
  topLayout->addLayout(controls);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(top);
  splitter->addWidget(table_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);

  connect(smoothing_, &QSpinBox::valueChanged, this, [this](int steps) {
    plot_->setSmoothingWindow(steps);
    plot_->refresh();
  });
  connect(jobs_, &QSpinBox::valueChanged, this, [this](int jobs) { set_->setJobs(jobs); });
  connect(resetView_, &QPushButton::clicked, this, [this] {
    plot_->resetView();
    plot_->refresh();
  });
  connect(stopSelected_, &QPushButton::clicked, this, [this] {
    for (int i : selectedIndices()) stop(i);
  });
  connect(clear_, &QPushButton::clicked, this, &ComparisonView::clear);
  connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
    const QList<int> picked = selectedIndices();
    if (picked.size() == 1 && set_->hasEnded(picked.first())) Q_EMIT runSelected(picked.first());
  });
  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (item->column() != kShow) return;
    const int i = item->data(kIndexRole).toInt();
    if (i >= 0 && i < size()) plot_->setRunVisible(series_[i], item->checkState() == Qt::Checked);
    plot_->refresh();
  });
  connect(tabs_, &QTabWidget::currentChanged, this, [this] { redrawFigure(); });
  plot_->clear(tr("No run yet: configure one and press Run"));
}

// The set's destructor stops every run; the queue then joins them (each within a training step).
ComparisonView::~ComparisonView() = default;

void ComparisonView::setHistoryPath(const QString& path) { set_->setHistoryPath(path); }
QString ComparisonView::historyWarning() const { return set_->historyWarning(); }

void ComparisonView::overlayStored(const QString& label, const RunSpec& spec, const RunResult& result,
                                   const QVector<CurvePoint>& curve) {
  if (size() == 0 && overlays_ == 0) plot_->clear(tr("Runs from the history"));
  if (overlays_ == 0) overlayTask_ = ComparisonSet::taskKey(spec);
  const int id = plot_->addRun(label, overlayStyle(overlays_++), spec, result);
  plot_->append(id, curve);
  plot_->appendHeldOut(id, curve);  // its held-out circles and probe accuracies, as its live run drew them
  plot_->markEnded(id, result);
  // Its oracle as the window read it beside the run (kept in its row since issue 79), its dotted line again.
  if (const double oracle = readingValue(result.readings, "oracle"); std::isfinite(oracle))
    plot_->setOracle(id, oracle, readingValue(result.readings, "oracle_se"));
  plot_->resetView();
  plot_->refresh();
  tabs_->setCurrentWidget(plotWidget_);
}

void ComparisonView::addPage(QWidget* page, const QString& title) {
  if (tabs_->indexOf(page) < 0) tabs_->addTab(page, title);
}
void ComparisonView::showPage(QWidget* page) { tabs_->setCurrentWidget(page); }
void ComparisonView::removePage(QWidget* page) {
  if (const int at = tabs_->indexOf(page); at >= 0) tabs_->removeTab(at);
}
QWidget* ComparisonView::shownPage() const { return tabs_->currentWidget(); }

int ComparisonView::size() const { return set_->size(); }
const Run* ComparisonView::run(int i) const { return &set_->run(i); }
const Run* ComparisonView::oracle(int i) const { return set_->oracle(i); }
RunStatus ComparisonView::status(int i) const { return set_->status(i); }
QString ComparisonView::label(int i) const { return labels_.value(i); }
QList<RunSpec> ComparisonView::specs() const { return set_->specs(); }
bool ComparisonView::running() const { return set_->running(); }

bool ComparisonView::takesTaskOf(const RunSpec& spec) const { return !running() || set_->onTaskOf(spec); }

void ComparisonView::addRuns(const QList<RunSpec>& specs, bool withOracle) {
  if (specs.isEmpty()) return;
  // Runs on another task start a new set, and history overlays of another task go with the old one (issue 79: they
  // stayed under a new task's runs).
  const bool overlaysElsewhere = overlays_ > 0 && overlayTask_ != ComparisonSet::taskKey(specs.first());
  if (!running() && (!set_->onTaskOf(specs.first()) || overlaysElsewhere)) clear();
  if (size() == 0 && overlays_ == 0) {  // a new set; runs overlaid from the history stay
    const RunSpec& s = specs.first();
    // A task whose id names its sizes (Beyond Normal) has no dim or mi key: its exact MI says what it is.
    const SharedTaskOptions stated = SharedTaskOptions::from(s.taskParams);
    const std::unique_ptr<TaskModel> model =
        stated.mi ? nullptr : buildTask(s.task, s.taskParams, static_cast<std::uint64_t>(s.seed));
    plot_->clear(model
                     ? (std::isnan(model->totalMi())
                            ? (model->rows() > 0 ? QStringLiteral("%1 (a table: I(x;y) unknown)")
                                                 : QStringLiteral("%1 (no truth: read by what the runs report)"))
                                  .arg(s.task)
                            : model->totalMiStandardError() > 0
                            ? QStringLiteral("%1 (I(x;y) %2 ± %3 nats, Monte Carlo)")
                                  .arg(s.task)
                                  .arg(model->totalMi(), 0, 'f', 3)
                                  .arg(model->totalMiStandardError(), 0, 'f', 3)
                            : QStringLiteral("%1 (exact I(x;y) %2 nats)").arg(s.task).arg(model->totalMi(), 0, 'f', 3))
                     : QStringLiteral("%1 (dim %2, total MI %3 nats)")
                           .arg(s.task)
                           .arg(stated.dim.value_or(0))
                           .arg(stated.mi.value_or(0)));
  }
  table_->setSortingEnabled(false);
  for (const RunSpec& spec : specs) {
    const int index = set_->add(spec, withOracle);
    const RunResult known = set_->run(index).result();
    series_ << plot_->addRun(spec.method, seriesStyle(index), spec, known);
    const int row = table_->rowCount();
    table_->insertRow(row);
    for (int c = 0; c < kColumns; ++c) {
      auto* item = new SortItem;
      item->setData(kIndexRole, index);
      table_->setItem(row, c, item);
    }
    table_->item(row, kShow)->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    table_->item(row, kShow)->setCheckState(Qt::Checked);
    table_->item(row, kShow)->setText(QString::number(index + 1));
    table_->item(row, kShow)->setData(kSortRole, index);
    table_->item(row, kShow)->setForeground(seriesStyle(index).color);
  }
  relabel();
  const ComparisonSet::LabelKeys labelKeys = set_->labelKeys();
  for (int i = 0; i < size(); ++i) updateRow(i, labelKeys);
  table_->setSortingEnabled(true);
  // Starts what can start, and draws what that poll reports: an earlier run's oracle can end between two ticks,
  // and a poll whose news is dropped never reports it again (its reference line went missing on one core).
  figureStale_ = true;
  tick();
}

void ComparisonView::updateRow(int index, const QMap<QString, QStringList>& labelKeys) {
  int row = -1;
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, kShow)->data(kIndexRole).toInt() == index) row = r;
  if (row < 0) return;
  const RunSpec& spec = set_->spec(index);
  const Run& run = set_->run(index);
  const RunStatus status = set_->status(index);
  const RunResult r = run.result();
  const bool ended = status == RunStatus::Finished || status == RunStatus::Cancelled || status == RunStatus::Failed;
  const bool estimated = hasEstimate(r);
  constexpr double kNoBound = std::numeric_limits<double>::quiet_NaN();
  auto set = [&](int column, const QString& text, const QVariant& sortBy = {}) {
    QTableWidgetItem* item = table_->item(row, column);
    item->setText(text);
    item->setData(kSortRole, sortBy);
  };
  const QString differs = set_->labelOf(spec, labelKeys).section(' ', 1);
  set(kMethod, spec.method);
  set(kDiffers, differs);
  // With an interval over the data (a finite set's reading), the interval; else the standard error.
  const double low = readingValue(r.readings, "ci_low"), high = readingValue(r.readings, "ci_high");
  const auto number = [this](double nats) { return cellNumber(nats); };
  const QString spread = spreadInWords(r.stderror, low, high, number);
  set(kEstimate, estimated ? cellNumber(r.estimate) + spread : QString(),
      estimated ? QVariant(r.estimate) : QVariant());
  // A dataset has no truth: its permutation baseline (y shuffled) stands beside the estimate instead.
  const QString baseline =
      std::isfinite(r.baseline)
          ? QStringLiteral("; y shuffled: %1%2")
                .arg(cellNumber(r.baseline), spreadInWords(r.baselineStderr, kNoBound, kNoBound, number))
          : QString();
  set(kTarget,
      std::isnan(r.trueMi) ? QStringLiteral("%1 unknown%2").arg(r.targetName, baseline)
                           : QStringLiteral("%1 = %2").arg(r.targetName,
                                                           truthInWords(r.trueMi, r.trueMiStderr, number, "±")),
      std::isnan(r.trueMi) ? QVariant() : QVariant(r.trueMi));
  set(kCeiling,
      r.ceilings.isEmpty() ? tr("none")
                           : QStringLiteral("%1 = %2").arg(r.ceilings[0].name, cellNumber(r.ceilings[0].value)),
      r.ceilings.isEmpty() ? QVariant() : QVariant(r.ceilings[0].value));
  const bool error = estimated && !std::isnan(r.trueMi);
  set(kError, error ? cellNumber(r.estimate - r.trueMi) : QString(),
      error ? QVariant(r.estimate - r.trueMi) : QVariant());
  const double seconds = ended ? r.seconds : set_->lastSeconds(index);
  const int steps = ended ? r.stepsDone : set_->lastStep(index);
  const double speed = seconds > 0 ? steps / seconds : 0;
  // A method that trains nothing (KSG) has no steps per second: blank, not 0; and no steps to count, but the
  // evaluation batches it reads.
  const bool training = set_->trains(spec);
  set(kSpeed, seconds > 0 && training ? QString::number(speed, 'f', 0) : QString(),
      training ? QVariant(speed) : QVariant());
  QString statusText = statusName(status);
  if (status == RunStatus::Running && training)
    statusText += QStringLiteral(" %1/%2").arg(set_->lastStep(index)).arg(spec.steps);
  else if (status == RunStatus::Running && spec.samples > 0)
    statusText += QStringLiteral(": no training; reading its %1 samples").arg(spec.samples);
  else if (status == RunStatus::Running)
    statusText += QStringLiteral(": no training; reading batch %1 of %2")
                      .arg(std::max(1, run.evaluationsBegun()))
                      .arg(spec.evalBatches);
  if (!r.reason.isEmpty() && ended)  // "cancelled at step 193" already says its status
    statusText = r.reason.startsWith(statusText) ? r.reason : statusText + ": " + r.reason;
  if (!r.warning.isEmpty()) statusText += " (warning: " + r.warning + ")";
  set(kStatus, statusText);
  table_->item(row, kStatus)->setToolTip(r.warning.isEmpty() ? r.reason : r.warning);
}

bool ComparisonView::tick() {
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  const ComparisonSet::Poll poll = set_->poll();
  for (int i = 0; i < poll.runs.size(); ++i) {
    const ComparisonSet::Progress& p = poll.runs[i];
    if (!p.points.isEmpty()) plot_->append(series_[i], p.points);
    if (!p.heldOut.isEmpty()) plot_->appendHeldOut(series_[i], p.heldOut);
    if (p.oracle && p.oracle->status == RunStatus::Finished && !p.oracle->levels.isEmpty())
      plot_->setOracleLevels(series_[i], p.oracle->levels, scheduleOf(set_->spec(i).taskParams).stepsPerLevel);
    else if (p.oracle && p.oracle->status == RunStatus::Finished)
      plot_->setOracle(series_[i], p.oracle->estimate, p.oracle->stderror);
    if (p.ended) plot_->markEnded(series_[i], *p.ended);
  }
  const bool changed = poll.changed, done = poll.done;
  if (changed || done || now - lastTableMs_ >= kTableRefreshMs) {
    lastTableMs_ = now;
    refreshTable();
  }
  plot_->refresh();
  figureStale_ = figureStale_ || changed;
  if (tabs_->currentWidget() == figure_ && (figureStale_ || running()) && now - lastFigureMs_ >= kFigureRefreshMs)
    redrawFigure();
  return done;
}

void ComparisonView::refreshTable() {
  table_->setSortingEnabled(false);
  const ComparisonSet::LabelKeys labelKeys = set_->labelKeys();
  for (int i = 0; i < size(); ++i) updateRow(i, labelKeys);
  table_->setSortingEnabled(true);
}

void ComparisonView::redrawFigure() {
  const QList<FigureRun> runs = set_->figureRuns();
  drawFigure(figure_, chooseFigure(runs), runs);
  figureStale_ = false;
  lastFigureMs_ = QDateTime::currentMSecsSinceEpoch();
}

void ComparisonView::showFigure(bool figure) {
  tabs_->setCurrentWidget(figure ? static_cast<QWidget*>(figure_) : plotWidget_);
  if (figure) redrawFigure();
}

void ComparisonView::stop(int index) { set_->stop(index); }

void ComparisonView::stopAll() { set_->stopAll(); }

void ComparisonView::clear() {
  if (!set_->reset(jobs_->value())) return;  // stop first: what trains is never dropped
  series_.clear();
  labels_.clear();
  overlays_ = 0;
  table_->setRowCount(0);
  plot_->clear(tr("No run yet: configure one and press Run"));
  figureStale_ = true;
  Q_EMIT cleared();
}

void ComparisonView::previewRefused() {
  if (size() > 0 || overlays_ > 0) return;
  plot_->clear(tr("Nothing to preview: the form has an error, shown on its field"));
  plot_->refresh();
}

void ComparisonView::preview(const RunSpec& spec, const RunResult& known) {
  if (size() > 0 || overlays_ > 0) return;
  plot_->clear(tr("Configured: %1 on %2 (press Run; nothing trains yet)").arg(spec.method, spec.task));
  plot_->addRun(spec.method, seriesStyle(0), spec, known);
  plot_->refresh();
}

QList<int> ComparisonView::selectedIndices() const {
  QList<int> out;
  for (const QModelIndex& m : table_->selectionModel()->selectedRows())
    out << table_->item(m.row(), kShow)->data(kIndexRole).toInt();
  return out;
}

QString ComparisonView::saveSet(const QString& path) const { return set_->saveExperiment(path); }

QString ComparisonView::exportTable(const QString& path) const { return set_->exportCsv(path); }

QString ComparisonView::exportFigure(const QString& path) {
  redrawFigure();
  return exportPlot(figure_, path, 1200, 620);
}

}  // namespace milab
