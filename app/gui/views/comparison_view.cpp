#include "gui/views/comparison_view.h"

#include <qcustomplot.h>

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QMap>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextStream>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <mutex>

#include "engine/run_queue.h"
#include "engine/run_set.h"
#include "engine/staircase.h"
#include "gui/panels/sort_item.h"
#include "method/method_registry.h"
#include "plot/experiment_figure.h"
#include "plot/plot_export.h"
#include "plot/run_plot.h"
#include "results/run_files.h"
#include "results/run_store.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

enum Column { kShow, kMethod, kDiffers, kEstimate, kTarget, kCeiling, kError, kSpeed, kStatus, kColumns };
constexpr int kIndexRole = Qt::UserRole + 1;  // the entry a row shows, whatever the sort order
constexpr qint64 kTableRefreshMs = 250;       // the table's numbers change slower than the eye reads them
constexpr qint64 kFigureRefreshMs = 1000;     // a staircase figure follows its runs live, once a second
constexpr int kOracleStepsPerLevel = 50;      // a staircase's oracle: batches read per level (standard error ~1/7)

QString taskKey(const RunSpec& s) {
  return s.task + QJsonDocument(QJsonObject::fromVariantMap(s.taskParams)).toJson(QJsonDocument::Compact);
}

QString number(double v, int digits = 3) { return QString::number(v, 'f', digits); }

}  // namespace

struct ComparisonView::HistorySink {
  std::mutex mutex;
  QString path, warning;
};

struct ComparisonView::Entry {
  RunSpec spec;
  int queueIndex = -1;
  int series = -1;
  bool wantOracle = false;
  std::unique_ptr<Run> oracle;
  bool oracleShown = false;
  bool endedMarked = false;
  QString label;
  int lastStep = 0;
  double lastSeconds = 0;
};

ComparisonView::ComparisonView(const MethodRegistry& registry, QWidget* parent)
    : QWidget(parent),
      registry_(registry),
      queue_(std::make_unique<RunQueue>(registry, std::max(1, QThread::idealThreadCount() - 1))),
      plotWidget_(new QCustomPlot(this)),
      plot_(std::make_unique<RunPlot>(plotWidget_)),
      figure_(new QCustomPlot(this)),
      tabs_(new QTabWidget(this)),
      table_(new QTableWidget(0, kColumns, this)),
      smoothing_(new QSpinBox(this)),
      jobs_(new QSpinBox(this)),
      resetView_(new QPushButton(tr("Reset view"), this)),
      stopSelected_(new QPushButton(tr("Stop selected"), this)),
      clear_(new QPushButton(tr("Clear set"), this)),
      history_(std::make_shared<HistorySink>()) {
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
  jobs_->setValue(queue_->jobs());
  jobs_->setToolTip(tr("Runs that train at once (one core each); the others wait in the queue"));
  resetView_->setToolTip(
      tr("Fit the axes to the data again (also: double click the plot). Drag pans, the wheel zooms."));

  table_->setHorizontalHeaderLabels({tr("show"), tr("method"), tr("differs"), tr("estimate ± stderr"), tr("target"),
                                     tr("ceiling"), tr("estimate − target"), tr("steps/s"), tr("status")});
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
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
  connect(jobs_, &QSpinBox::valueChanged, this, [this](int jobs) { queue_->setJobs(jobs); });
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
    if (picked.size() == 1 && queue_->hasEnded(entries_[picked.first()]->queueIndex))
      Q_EMIT runSelected(picked.first());
  });
  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (item->column() != kShow) return;
    const int i = item->data(kIndexRole).toInt();
    if (i >= 0 && i < size()) plot_->setRunVisible(entries_[i]->series, item->checkState() == Qt::Checked);
    plot_->refresh();
  });
  connect(tabs_, &QTabWidget::currentChanged, this, [this] { redrawFigure(); });
  plot_->clear(tr("No run yet: configure one and press Run"));
}

ComparisonView::~ComparisonView() {
  // Every run stops at once; the queue's destructor then joins them (each within a training step).
  queue_->cancelAll();
  for (auto& e : entries_)
    if (e->oracle) e->oracle->cancel();
}

void ComparisonView::setHistoryPath(const QString& path) {
  std::lock_guard<std::mutex> lock(history_->mutex);
  history_->path = path;
}

QString ComparisonView::historyWarning() const {
  std::lock_guard<std::mutex> lock(history_->mutex);
  return history_->warning;
}

void ComparisonView::overlayStored(const QString& label, const RunSpec& spec, const RunResult& result,
                                   const QVector<CurvePoint>& curve) {
  if (entries_.empty() && overlays_ == 0) plot_->clear(tr("Runs from the history"));
  const int id = plot_->addRun(label, seriesStyle(size() + overlays_++), spec, result);
  plot_->append(id, curve);
  plot_->markEnded(id, result);
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

int ComparisonView::size() const { return int(entries_.size()); }
const Run* ComparisonView::run(int i) const { return &queue_->run(entries_[i]->queueIndex); }
const Run* ComparisonView::oracle(int i) const { return entries_[i]->oracle.get(); }
RunStatus ComparisonView::status(int i) const { return queue_->status(entries_[i]->queueIndex); }
QString ComparisonView::label(int i) const { return entries_[i]->label; }

QList<RunSpec> ComparisonView::specs() const {
  QList<RunSpec> out;
  for (const auto& e : entries_) out << e->spec;
  return out;
}

bool ComparisonView::running() const { return !queue_->isDone(); }

void ComparisonView::addRuns(const QList<RunSpec>& specs, bool withOracle) {
  if (specs.isEmpty()) return;
  if (!entries_.empty() && !running() && taskKey(entries_.front()->spec) != taskKey(specs.first())) clear();
  if (entries_.empty() && overlays_ == 0) {  // a new set; runs overlaid from the history stay
    const RunSpec& s = specs.first();
    // A task whose id names its sizes (Beyond Normal) has no dim or mi key: its exact MI says what it is.
    const std::unique_ptr<TaskModel> model =
        s.taskParams.contains("mi") ? nullptr : buildTask(s.task, s.taskParams, static_cast<std::uint64_t>(s.seed));
    plot_->clear(model
                     ? (std::isnan(model->totalMi())
                            ? (model->rows() > 0 ? QStringLiteral("%1 (a table: I(x;y) unknown)")
                                                 : QStringLiteral("%1 (no truth: read by what the runs report)"))
                                  .arg(s.task)
                            : QStringLiteral("%1 (exact I(x;y) %2 nats)").arg(s.task).arg(model->totalMi(), 0, 'f', 3))
                     : QStringLiteral("%1 (dim %2, total MI %3 nats)")
                           .arg(s.task)
                           .arg(s.taskParams.value("dim").toInt())
                           .arg(s.taskParams.value("mi").toDouble()));
  }
  table_->setSortingEnabled(false);
  for (const RunSpec& spec : specs) {
    auto e = std::make_unique<Entry>();
    e->spec = spec;
    e->queueIndex = queue_->add(spec);
    queue_->run(e->queueIndex).setOnFinished([history = history_](const Run& run) {  // on the run's worker
      QString path;
      {
        std::lock_guard<std::mutex> lock(history->mutex);
        path = history->path;
      }
      if (path.isEmpty()) return;
      const QString warning = recordRun(path, run.spec(), run.result(), run.curve(), "window");
      std::lock_guard<std::mutex> lock(history->mutex);
      if (history->warning.isEmpty()) history->warning = warning;
    });
    e->wantOracle = withOracle && spec.methodParams.value("critic").toString() == "learned";
    const RunResult known = queue_->run(e->queueIndex).result();
    e->series = plot_->addRun(spec.method, seriesStyle(size()), spec, known);
    const int row = table_->rowCount();
    table_->insertRow(row);
    for (int c = 0; c < kColumns; ++c) {
      auto* item = new SortItem;
      item->setData(kIndexRole, size());
      table_->setItem(row, c, item);
    }
    table_->item(row, kShow)->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    table_->item(row, kShow)->setCheckState(Qt::Checked);
    table_->item(row, kShow)->setText(QString::number(size() + 1));
    table_->item(row, kShow)->setData(kSortRole, size());
    table_->item(row, kShow)->setForeground(seriesStyle(size()).color);
    entries_.push_back(std::move(e));
  }
  relabel();
  const QStringList differing = differingKeys(this->specs());
  for (int i = 0; i < size(); ++i) updateRow(i, differing);
  table_->setSortingEnabled(true);
  queue_->poll();
  plot_->refresh();
  figureStale_ = true;
}

bool ComparisonView::trains(const RunSpec& spec) const {
  const MethodPlugin* method = registry_.find(spec.method);
  return method && method->info().trains;
}

QString ComparisonView::labelOf(const RunSpec& spec, const QStringList& differing) const {
  return runLabel(spec, keysTheRunReads(differing, trains(spec)));
}

void ComparisonView::relabel() {
  const QStringList keys = differingKeys(specs());
  QList<QPair<QString, QList<int>>> groups;
  QMap<QString, int> uses;  // identical runs (Run pressed twice) would share a legend entry: they get their row number
  for (const auto& e : entries_) ++uses[labelOf(e->spec, keys)];
  for (int i = 0; i < size(); ++i) {
    auto& e = entries_[i];
    e->label = labelOf(e->spec, keys);
    if (uses.value(e->label) > 1) e->label += QStringLiteral(" #%1").arg(i + 1);
    plot_->setRunLabel(e->series, e->label);
    const QString group = seedGroupLabel(e->spec, keys);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == group; });
    if (it == groups.end())
      groups << qMakePair(group, QList<int>{e->series});
    else
      it->second << e->series;
  }
  plot_->setSeedGroups(keys.contains("seed") ? groups : QList<QPair<QString, QList<int>>>{});
}

void ComparisonView::updateRow(int index, const QStringList& differing) {
  int row = -1;
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, kShow)->data(kIndexRole).toInt() == index) row = r;
  if (row < 0) return;
  const Entry& e = *entries_[index];
  const Run& run = queue_->run(e.queueIndex);
  const RunStatus status = queue_->status(e.queueIndex);
  const RunResult r = run.result();
  const bool ended = status == RunStatus::Finished || status == RunStatus::Cancelled || status == RunStatus::Failed;
  const bool estimated = hasEstimate(r);
  auto set = [&](int column, const QString& text, const QVariant& sortBy = {}) {
    QTableWidgetItem* item = table_->item(row, column);
    item->setText(text);
    item->setData(kSortRole, sortBy);
  };
  const QString differs = labelOf(e.spec, differing).section(' ', 1);
  set(kMethod, e.spec.method);
  set(kDiffers, differs);
  set(kEstimate, estimated ? QStringLiteral("%1 ± %2").arg(number(r.estimate), number(r.stderror)) : QString(),
      estimated ? QVariant(r.estimate) : QVariant());
  // A dataset has no truth: its permutation baseline (y shuffled) stands beside the estimate instead.
  const QString baseline = std::isfinite(r.baseline) ? QStringLiteral("; y shuffled: %1 ± %2")
                                                           .arg(number(r.baseline), number(r.baselineStderr))
                                                     : QString();
  set(kTarget,
      std::isnan(r.trueMi) ? QStringLiteral("%1 unknown%2").arg(r.targetName, baseline)
                           : QStringLiteral("%1 = %2").arg(r.targetName, number(r.trueMi)),
      std::isnan(r.trueMi) ? QVariant() : QVariant(r.trueMi));
  set(kCeiling,
      r.ceilings.isEmpty() ? tr("none")
                           : QStringLiteral("%1 = %2").arg(r.ceilings[0].name, number(r.ceilings[0].value)),
      r.ceilings.isEmpty() ? QVariant() : QVariant(r.ceilings[0].value));
  const bool error = estimated && !std::isnan(r.trueMi);
  set(kError, error ? number(r.estimate - r.trueMi) : QString(), error ? QVariant(r.estimate - r.trueMi) : QVariant());
  const double seconds = ended ? r.seconds : e.lastSeconds;
  const int steps = ended ? r.stepsDone : e.lastStep;
  const double speed = seconds > 0 ? steps / seconds : 0;
  // A method that trains nothing (KSG) has no steps per second: blank, not 0; and no steps to count, but the
  // evaluation batches it reads.
  const bool training = trains(e.spec);
  set(kSpeed, seconds > 0 && training ? number(speed, 0) : QString(), training ? QVariant(speed) : QVariant());
  QString statusText = statusName(status);
  if (status == RunStatus::Running && training)
    statusText += QStringLiteral(" %1/%2").arg(e.lastStep).arg(e.spec.steps);
  else if (status == RunStatus::Running && e.spec.samples > 0)
    statusText += QStringLiteral(": no training; reading its %1 samples").arg(e.spec.samples);
  else if (status == RunStatus::Running)
    statusText += QStringLiteral(": no training; reading batch %1 of %2")
                      .arg(std::max(1, run.evaluationsBegun()))
                      .arg(e.spec.evalBatches);
  if (!r.reason.isEmpty() && ended)  // "cancelled at step 193" already says its status
    statusText = r.reason.startsWith(statusText) ? r.reason : statusText + ": " + r.reason;
  if (!r.warning.isEmpty()) statusText += " (warning: " + r.warning + ")";
  set(kStatus, statusText);
  table_->item(row, kStatus)->setToolTip(r.warning.isEmpty() ? r.reason : r.warning);
}

bool ComparisonView::tick() {
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  const QList<int> endedNow = queue_->poll();
  bool changed = !endedNow.isEmpty();
  for (int i = 0; i < size(); ++i) {
    Entry& e = *entries_[i];
    Run& run = queue_->run(e.queueIndex);
    const RunStatus status = queue_->status(e.queueIndex);
    if (status == RunStatus::Pending) continue;
    const QVector<CurvePoint> points = run.takeNewPoints();
    if (!points.isEmpty()) {
      plot_->append(e.series, points);
      e.lastStep = points.last().step;
      e.lastSeconds = points.last().seconds;
    }
    if (const QVector<CurvePoint> heldOut = run.takeNewHeldOut(); !heldOut.isEmpty()) {
      plot_->appendHeldOut(e.series, heldOut);
      changed = true;
    }
    // The oracle starts with its run (it trains nothing: one step, then the evaluation batches), or after it when
    // the run finished before this tick saw it running (a short run).
    if (e.wantOracle && !e.oracle && (status == RunStatus::Running || status == RunStatus::Finished)) {
      RunSpec spec = e.spec;
      spec.methodParams.insert("critic", "oracle");
      spec.steps = 1;
      // A staircase's oracle reads every level: a few steps each (each one more evaluation batch), all of them
      // its statistics, drawn over the run's own levels.
      if (const MiSchedule stairs = scheduleOf(spec.taskParams); stairs.isSet()) {
        const int perLevel = std::min(stairs.stepsPerLevel, kOracleStepsPerLevel);
        spec.taskParams.insert("steps_per_level", perLevel);
        spec.taskParams.insert("level_tail", perLevel);
      }
      if (validateRunSpec(&spec, registry_).isEmpty()) {
        e.oracle = std::make_unique<Run>(spec, registry_.find(spec.method));
        e.oracle->start();
      } else {
        e.wantOracle = false;
      }
    }
    if (e.oracle && !e.oracleShown && e.oracle->isFinished()) {
      e.oracleShown = true;
      if (const RunResult& o = e.oracle->result(); o.status == RunStatus::Finished && !o.levels.isEmpty())
        plot_->setOracleLevels(e.series, o.levels, scheduleOf(e.spec.taskParams).stepsPerLevel);
      else if (o.status == RunStatus::Finished)
        plot_->setOracle(e.series, o.estimate, o.stderror);
    }
    if (queue_->hasEnded(e.queueIndex) && !e.endedMarked) {
      e.endedMarked = true;
      const RunResult& ended = queue_->run(e.queueIndex).result();
      plot_->markEnded(e.series, ended);
      // A stopped or failed run takes its oracle with it; a finished one lets it finish (one short evaluation that
      // a busy machine can end after the training run), so its reference line and reading still appear.
      if (e.oracle && !e.oracle->isFinished() && ended.status != RunStatus::Finished) e.oracle->cancel();
      changed = true;
    }
  }
  // Done once every run has ended and every oracle that started has been drawn (one may end after its run).
  const bool done = queue_->isDone() && std::none_of(entries_.cbegin(), entries_.cend(), [](const auto& e) {
                      return e->oracle && !e->oracleShown;
                    });
  if (changed || done || now - lastTableMs_ >= kTableRefreshMs) {
    lastTableMs_ = now;
    table_->setSortingEnabled(false);
    const QStringList differing = differingKeys(specs());
    for (int i = 0; i < size(); ++i) updateRow(i, differing);
    table_->setSortingEnabled(true);
  }
  plot_->refresh();
  figureStale_ = figureStale_ || changed;
  if (tabs_->currentWidget() == figure_ && (figureStale_ || running()) && now - lastFigureMs_ >= kFigureRefreshMs)
    redrawFigure();
  return done;
}

void ComparisonView::redrawFigure() {
  QList<FigureRun> runs;
  for (const auto& e : entries_) {
    const Run& run = queue_->run(e->queueIndex);
    FigureRun f{e->spec, run.result(), {}};
    f.result.status = queue_->status(e->queueIndex);
    if (!f.result.levels.isEmpty()) f.curve = run.curve();
    runs << f;
  }
  drawFigure(figure_, chooseFigure(runs), runs);
  figureStale_ = false;
  lastFigureMs_ = QDateTime::currentMSecsSinceEpoch();
}

void ComparisonView::showFigure(bool figure) {
  tabs_->setCurrentWidget(figure ? static_cast<QWidget*>(figure_) : plotWidget_);
  if (figure) redrawFigure();
}

void ComparisonView::stop(int index) {
  if (index < 0 || index >= size()) return;
  queue_->cancel(entries_[index]->queueIndex);
  if (entries_[index]->oracle) entries_[index]->oracle->cancel();
}

void ComparisonView::stopAll() {
  for (int i = 0; i < size(); ++i) stop(i);
}

void ComparisonView::clear() {
  if (running()) return;  // stop first: what trains is never dropped
  entries_.clear();
  overlays_ = 0;
  queue_ = std::make_unique<RunQueue>(registry_, jobs_->value());
  table_->setRowCount(0);
  plot_->clear(tr("No run yet: configure one and press Run"));
  figureStale_ = true;
  Q_EMIT cleared();
}

void ComparisonView::previewRefused() {
  if (!entries_.empty() || overlays_ > 0) return;
  plot_->clear(tr("Nothing to preview: the form has an error, shown on its field"));
  plot_->refresh();
}

void ComparisonView::preview(const RunSpec& spec, const RunResult& known) {
  if (!entries_.empty() || overlays_ > 0) return;
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

QString ComparisonView::saveSet(const QString& path) const {
  if (entries_.empty()) return tr("save: the set is empty; run something first");
  return saveAtomically(path, QJsonDocument(runSetExperiment(specs())).toJson(QJsonDocument::Indented));
}

QString ComparisonView::exportTable(const QString& path) const {
  if (entries_.empty()) return tr("export: the set is empty; run something first");
  QByteArray bytes;
  QTextStream out(&bytes);
  out.setRealNumberPrecision(10);
  out << "run,method,differs,estimate,stderr,target,true_value,ceiling,ceiling_value,estimate_minus_target,"
         "steps_per_second,status,reason\n";
  const QStringList keys = differingKeys(specs());
  for (int i = 0; i < size(); ++i) {
    const Entry& e = *entries_[i];
    const RunResult r = queue_->run(e.queueIndex).result();
    const RunStatus status = queue_->status(e.queueIndex);
    const bool estimated = hasEstimate(r);
    out << i + 1 << ',' << csvField(e.spec.method) << ',' << csvField(labelOf(e.spec, keys).section(' ', 1)) << ',';
    if (estimated)
      out << r.estimate << ',' << r.stderror << ',';
    else
      out << ",,";
    out << csvField(r.targetName) << ',' << r.trueMi << ',';
    if (r.ceilings.isEmpty())
      out << ",,";
    else
      out << csvField(r.ceilings[0].name) << ',' << r.ceilings[0].value << ',';
    if (estimated) out << r.estimate - r.trueMi;
    out << ',';
    if (r.seconds > 0 && r.stepsDone > 0) out << r.stepsDone / r.seconds;
    out << ',' << statusName(status) << ',' << csvField(r.reason) << '\n';
  }
  out.flush();
  return saveAtomically(path, bytes);
}

QString ComparisonView::exportFigure(const QString& path) {
  redrawFigure();
  return exportPlot(figure_, path, 1200, 620);
}

}  // namespace milab
