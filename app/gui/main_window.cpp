#include "gui/main_window.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <utility>

#include "gui/counted.h"
#include "gui/file_dialogs.h"
#include "gui/panels/experiment_panel.h"
#include "gui/panels/history_panel.h"
#include "gui/result_text.h"
#include "gui/set_exports.h"
#include "gui/views/comparison_view.h"
#include "gui/views/embedding_view.h"
#include "gui/views/grid_view.h"
#include "gui/views/hashing_view.h"
#include "gui/views/prior_order_view.h"
#include "method/method_registry.h"
#include "plot/plot_export.h"
#include "plot/run_plot.h"
#include "results/run_files.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

// The plot's column asks for no more width than kNarrowestColumn: what it holds (tabs added as experiments run, a
// long result line, a table's columns) squeezes or scrolls instead. Its own minimum width, the largest of its
// contents', made the window widen itself past the screen (1653 px on a 1600 px screen when the Embedding tab
// appeared), cutting off the legend and the status column.
class NarrowableColumn : public QWidget {
 public:
  using QWidget::QWidget;
  static constexpr int kNarrowestColumn = 320;
  QSize minimumSizeHint() const override { return {kNarrowestColumn, QWidget::minimumSizeHint().height()}; }
};

}  // namespace

namespace {
constexpr int kRefreshMs = 33;   // ~30 Hz: smooth to the eye, a negligible cost beside training
constexpr int kResultLines = 4;  // estimate and truth; terms; steps and device; the oracle's or a set's line
}  // namespace

MainWindow::MainWindow(const MethodRegistry& registry, QWidget* parent)
    : MainWindow(registry, defaultHistoryPath(), parent) {}

MainWindow::MainWindow(const MethodRegistry& registry, const QString& historyPath, QWidget* parent)
    : QMainWindow(parent),
      registry_(registry),
      controller_(registry),
      panel_(new ExperimentPanel(registry, this)),
      comparison_(new ComparisonView(registry, this)),
      history_(new HistoryPanel(historyPath, this)),
      embedding_(new EmbeddingView(this)),
      resultLabel_(new QLabel(this)),
      oracleCheck_(new QCheckBox(tr("Show the oracle: the same bound with the task's analytic critic"), this)),
      timer_(new QTimer(this)),
      previewTimer_(new QTimer(this)),
      grid_(std::make_unique<GridView>(registry, historyPath, this)),
      sweep_(std::make_unique<PriorOrderView>(registry, this)),
      hashing_(std::make_unique<HashingView>(registry, this)) {
  setWindowTitle("milab: mutual-information estimators");
  comparison_->setHistoryPath(historyPath);
  history_->setObjectName("historyPanel");
  comparison_->addPage(history_, tr("History"));
  embedding_->hide();  // until a run draws one: a child in no layout would sit over the window's corner
  connect(history_, &HistoryPanel::overlayRequested, this, [this](const QList<qint64>& ids) {
    const QString err = overlayHistory(ids);
    statusBar()->showMessage(err.isEmpty() ? tr("Overlaid %1 from the history").arg(counted(ids.size(), "run")) : err);
  });
  connect(history_, &HistoryPanel::storeFailed, this, [this](const QString& why) { statusBar()->showMessage(why); });
  connect(history_, &HistoryPanel::reopenRequested, this, [this](qint64 id) {
    const QString err = reopenHistory(id);
    statusBar()->showMessage(err.isEmpty() ? tr("Run %1 is in the form: press Run").arg(id) : err);
  });
  const QStringList plotNames{"gridPlot", "sweepPlot", "hashingPlot"};  // in backgroundViews()' order
  for (qsizetype i = 0; i < plotNames.size(); ++i) backgroundViews()[i]->plot()->setObjectName(plotNames[i]);
  resultLabel_->setObjectName("resultLabel");
  resultLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Room for a result's usual lines from the start, so that the plot above does not shrink when "Running..."
  // becomes the result (a longer one, with a failure reason and a warning, still grows the label).
  resultLabel_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  resultLabel_->setWordWrap(true);  // a long warning or failure reason wraps instead of running past the window's edge
  resultLabel_->setMinimumHeight(kResultLines * resultLabel_->fontMetrics().lineSpacing());
  statusBar();  // made now: QMainWindow makes it on the first message, and the window's layout would jump then
  auto* right = new NarrowableColumn(this);
  right->setObjectName("rightColumn");
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->addWidget(comparison_, 1);
  oracleCheck_->setObjectName("oracleCheck");
  oracleCheck_->setChecked(true);
  oracleCheck_->setToolTip(
      tr("The best value each bound can reach at its K, drawn dotted in the run's colour when known"));
  rightLayout->addWidget(oracleCheck_);
  rightLayout->addWidget(resultLabel_);
  // The form scrolls, so the window fits a 1366 x 768 screen whatever the method's parameters.
  auto* panelScroll = new QScrollArea(this);
  panelScroll->setObjectName("panelScroll");
  panelScroll->setWidget(panel_);
  panelScroll->setWidgetResizable(true);
  panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  panelScroll->setMinimumWidth(panel_->sizeHint().width() + 24);
  // Run and Stop stay pinned below the form, in view however far it scrolls.
  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(panelScroll, 1);
  leftLayout->addWidget(panel_->actionBar());
  auto* splitter = new QSplitter(this);
  splitter->addWidget(left);
  splitter->addWidget(right);
  splitter->setStretchFactor(1, 1);
  setCentralWidget(splitter);
  resize(1280, 720);
  if (!workspace_.geometry().isEmpty()) restoreGeometry(workspace_.geometry());

  buildMenus();

  connect(panel_, &ExperimentPanel::runRequested, this, &MainWindow::startRun);
  // The result line describes the set's runs: an emptied set leaves nothing for it to describe.
  connect(comparison_, &ComparisonView::cleared, resultLabel_, &QLabel::clear);
  connect(comparison_, &ComparisonView::cleared, this, [this] { comparison_->removePage(embedding_); });
  connect(comparison_, &ComparisonView::runSelected, this, [this](int index) {
    if (!busy()) showResultOf(index);  // while runs train the label follows them
  });
  // A cleared set shows the configured run again, not blank axes.
  connect(comparison_, &ComparisonView::cleared, previewTimer_, qOverload<>(&QTimer::start));
  connect(panel_, &ExperimentPanel::stopRequested, this, &MainWindow::stopRun);
  connect(timer_, &QTimer::timeout, this, &MainWindow::tick);
  timer_->setInterval(kRefreshMs);
  previewTimer_->setSingleShot(true);
  previewTimer_->setInterval(150);
  connect(previewTimer_, &QTimer::timeout, this, &MainWindow::previewConfiguredRun);
  connect(panel_, &ExperimentPanel::specEdited, previewTimer_, qOverload<>(&QTimer::start));
  previewConfiguredRun();

  for (const PluginLoadError& e : registry_.errors())
    statusBar()->showMessage(tr("Plugin %1 not loaded: %2").arg(QFileInfo(e.file).fileName(), e.reason));
  if (registry_.methods().isEmpty())
    panel_->showError(tr("method: no method plugin found in %1").arg(MethodRegistry::defaultPluginDirs().join(", ")));
}

MainWindow::~MainWindow() { workspace_.setGeometry(saveGeometry()); }

void MainWindow::closeEvent(QCloseEvent* event) {
  stopRun();  // what was measured is kept and recorded, as with Stop
  QMainWindow::closeEvent(event);
}

void MainWindow::setSpec(const RunSpec& spec) { panel_->setSpec(spec); }

void MainWindow::openData(const QString& path) {
  panel_->openTable(LabController::onData(panel_->spec(), path).taskParams);
}

RunPlot* MainWindow::plot() const { return comparison_->plot(); }

const Run* MainWindow::currentRun() const {
  return comparison_->size() ? comparison_->run(comparison_->size() - 1) : nullptr;
}

const Run* MainWindow::oracleRun() const {
  return comparison_->size() ? comparison_->oracle(comparison_->size() - 1) : nullptr;
}

bool MainWindow::busy() const { return (active_ && active_->running()) || comparison_->running(); }

bool MainWindow::startRun() {
  if (active_ && active_->running()) return false;  // a grid, a sweep or hashing: the form shows it, greyed
  QList<RunSpec> specs;
  QString err = controller_.formRuns(panel_->spec(), panel_->comparedMethods(), panel_->varyText(), &specs);
  // While the set trains, Run adds to it (the guide's promise); a set is on one task, and is not emptied while it
  // trains, so a run on another task waits for it.
  if (err.isEmpty() && comparison_->running() && !comparison_->takesTaskOf(specs.first())) {
    const auto named = [](const QString& id) {
      const TaskInfo* task = findTask(id);
      return task ? QStringLiteral("%1 (%2)").arg(task->displayName, id) : id;
    };
    err = tr("task: the set's runs on %1 still train, and a set is on one task; stop them (Stop) or wait, then run "
             "%2")
              .arg(named(comparison_->specs().first().task), named(specs.first().task));
    // Said where the eye is, under the plot, and kept on the status bar while the runs train (the form's own line
    // is far down a scrolled form).
    resultLabel_->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(err.toHtmlEscaped()));
  }
  if (!err.isEmpty()) {
    panel_->showError(err);
    statusBar()->showMessage(err);
    refusal_ = err;
    return false;
  }
  panel_->clearErrors();
  comparison_->showPage(comparison_->plotWidget());
  comparison_->addRuns(specs, oracleCheck_->isChecked());
  panel_->setRunning(true, /*formOpen=*/true);
  resultLabel_->setText(specs.size() == 1 ? tr("Running...") : tr("Running %1 runs...").arg(specs.size()));
  timer_->start();
  return true;
}

QString MainWindow::openRunSet(const QString& path) {
  workspace_.rememberFile(path);
  QList<RunSpec> specs;
  const QString err = busy() ? tr("experiment: another run or experiment is in progress; stop it first")
                             : controller_.fileRuns(path, &specs);
  if (!err.isEmpty()) {
    statusBar()->showMessage(err);
    return err;
  }
  setSpec(specs.first());
  comparison_->clear();
  comparison_->showPage(comparison_->plotWidget());
  comparison_->addRuns(specs, oracleCheck_->isChecked());
  panel_->setRunning(true, /*formOpen=*/true);
  resultLabel_->setText(
      tr("Running %1 of %2...")
          .arg(specs.size() == 1 ? tr("the run") : tr("the %1").arg(counted(specs.size(), "run")), path));
  timer_->start();
  return {};
}

void MainWindow::previewConfiguredRun() {
  if (busy()) return;
  const LabController::Preview preview = controller_.preview(panel_->spec(), comparison_->size() == 0);
  // Every refusal shows on its field as the form is edited (MI 100 at dim 5), whole, and goes once fixed, with the
  // status bar's copy of it from a refused Run.
  if (!preview.error.isEmpty()) {
    panel_->showError(preview.error);
    comparison_->previewRefused();
    return;
  }
  panel_->clearErrors();
  if (!refusal_.isEmpty() && statusBar()->currentMessage() == refusal_) statusBar()->clearMessage();
  refusal_.clear();
  oracleCheck_->setEnabled(preview.hasOracle);
  oracleCheck_->setToolTip(
      preview.hasOracle
          ? tr("The best value each bound can reach at its K, drawn dotted in the run's colour when known")
          : tr("%1 on this task has no analytic critic to compare with").arg(preview.spec.method));
  if (comparison_->size() > 0) return;
  comparison_->preview(preview.spec, preview.known);
}

QString MainWindow::overlayHistory(const QList<qint64>& ids) {
  QList<LabController::Overlay> overlays;
  const QString err = controller_.overlaysOf(history_->store(), ids, &overlays);
  if (!err.isEmpty()) return err;
  for (const LabController::Overlay& o : overlays) comparison_->overlayStored(o.label, o.spec, o.result, o.curve);
  return {};
}

QString MainWindow::reopenHistory(qint64 id) {
  RunSpec spec;
  const QString err = controller_.storedSpec(history_->store(), id, &spec);
  if (!err.isEmpty()) return err;
  setSpec(spec);
  return {};
}

void MainWindow::stopRun() {
  comparison_->stopAll();
  if (active_ && active_->running()) active_->cancel();
}

void MainWindow::tick() {
  if (!active_ || !active_->running()) {
    const bool done = comparison_->tick();
    const bool refusalShown = !refusal_.isEmpty() && statusBar()->currentMessage() == refusal_;
    if (const Run* run = currentRun(); run && !done && !refusalShown) {
      const int steps = run->stepsDone();
      statusBar()->showMessage(tr("%1 in the set; the last: step %2 / %3")
                                   .arg(counted(comparison_->size(), "run"))
                                   .arg(steps)
                                   .arg(run->spec().steps));
    }
    if (done) {
      timer_->stop();
      panel_->setRunning(false);
      if (refusal_.startsWith(QLatin1String("task: the set's runs on"))) {  // the runs it waited for have ended
        panel_->clearErrors();
        if (statusBar()->currentMessage() == refusal_) statusBar()->clearMessage();
        refusal_.clear();
      }
      showResult();
      history_->refresh();
      if (!comparison_->historyWarning().isEmpty())
        statusBar()->showMessage(comparison_->historyWarning() + tr(" (the runs' results are kept)"));
    }
    return;
  }
  statusBar()->showMessage(active_->progressLine());
  if (!active_->poll()) return;
  statusBar()->showMessage(active_->progressLine());  // its last count, not the one before the end
  if (formBeforeBackground_) setSpec(*std::exchange(formBeforeBackground_, std::nullopt));
  timer_->stop();
  panel_->setBanner({});
  panel_->setRunning(false);
  resultLabel_->setText(active_->resultHtml());
}

void MainWindow::setUnits(Units units) {
  units_ = units;
  comparison_->setUnits(units);
  history_->setUnits(units);
  if (shownResult_ >= 0 && shownResult_ < comparison_->size() && comparison_->run(shownResult_)->isFinished())
    showResultOf(shownResult_);
}

void MainWindow::showResult() {
  if (comparison_->size() > 0) showResultOf(comparison_->size() - 1);
}

void MainWindow::showResultOf(int index) {
  if (index < 0 || index >= comparison_->size()) return;
  const Run* run = comparison_->run(index);
  const RunResult r = run->result();
  const Run* oracle = comparison_->oracle(index);
  const RunResult oracleResult = oracle && oracle->isFinished() ? oracle->result() : RunResult{};
  shownResult_ = index;
  QString text =
      resultHtml(run->spec(), r, oracleResult.status == RunStatus::Finished ? &oracleResult : nullptr, units_);
  if (!r.embedding.isEmpty()) {
    embedding_->setMap(r.embedding, comparison_->label(index));
    comparison_->addPage(embedding_, tr("Embedding"));
  }
  if (comparison_->size() > 1) text = setPlaceHtml(comparison_->size(), index, comparison_->label(index)) + text;
  resultLabel_->setText(text);
  statusBar()->showMessage(r.status == RunStatus::Failed ? r.reason : tr("Run %1").arg(statusName(r.status)));
}

void MainWindow::showMessage(const QString& line) {
  statusBar()->showMessage(line);
  resultLabel_->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(line.toHtmlEscaped()));
}

QString MainWindow::exportTo(const QString& path, QString* written) {
  QString words;
  if (!written) written = &words;
  for (const BackgroundView* view : backgroundViews())
    if (comparison_->shownPage() == view->plot())  // a background experiment's tab is shown
      return view->running() ? tr("export: the experiment is still running") : view->exportTo(path);
  if (!currentRun()) return tr("export: nothing to export yet, run an experiment first");
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "csv") return exportSetCurves(comparison_->set(), path, written);
  if (suffix == "json") return exportSetSummaries(comparison_->set(), path, written);
  *written = tr("the plot");
  return exportPlot(comparison_->plotWidget(), path, 1200, 640);
}

QString MainWindow::suggestedName(const QString& what, const QString& suffix) const {
  QString base = QStringLiteral("milab");
  for (const BackgroundView* view : backgroundViews())
    if (comparison_->shownPage() == view->plot()) base = view->pageTitle().toLower().replace(' ', '-');
  if (base == "milab" && comparison_->size() > 0) {
    QStringList methods;
    for (const RunSpec& s : comparison_->specs())
      if (!methods.contains(s.method)) methods << s.method;
    base = comparison_->specs().first().task + "-" + (methods.size() == 1 ? methods.first() : QStringLiteral("set"));
  }
  return base + "-" + what + "." + suffix;
}

void MainWindow::saveWithDialog(const QString& caption, const QString& name, const QString& filter,
                                const std::function<QString(const QString&, QString*)>& write, const QString& done) {
  const QString folder = workspace_.lastFolder().isEmpty() ? QDir::homePath() : workspace_.lastFolder();
  QString path = askSaveFile(this, caption, QDir(folder).filePath(name), filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += "." + QFileInfo(name).suffix();
  QString written;
  const QString err = write(path, &written);
  if (!err.isEmpty()) {
    QMessageBox::warning(this, tr("Not written"), err);
    return;
  }
  workspace_.rememberFolder(QFileInfo(path).absolutePath());
  statusBar()->showMessage(!done.isEmpty()      ? done.arg(path)
                           : written.isEmpty() ? tr("Wrote %1").arg(path)
                                               : tr("Wrote %1 to %2").arg(written, path));
}

}  // namespace milab
