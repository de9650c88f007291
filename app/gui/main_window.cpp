#include "gui/main_window.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <cmath>
#include <utility>

#include "engine/experiment.h"
#include "engine/run_set.h"
#include "gui/counted.h"
#include "gui/panels/experiment_panel.h"
#include "gui/panels/grid_shape_dialog.h"
#include "gui/panels/hashing_shape_dialog.h"
#include "gui/panels/history_panel.h"
#include "gui/views/comparison_view.h"
#include "gui/views/embedding_view.h"
#include "gui/views/grid_view.h"
#include "gui/views/hashing_view.h"
#include "gui/views/prior_order_view.h"
#include "method/method_registry.h"
#include "plot/plot_export.h"
#include "plot/run_plot.h"
#include "results/run_files.h"
#include "results/run_store.h"

namespace milab {

namespace {
constexpr int kRefreshMs = 33;  // ~30 Hz: smooth to the eye, a negligible cost beside training
constexpr int kResultLines = 4;  // estimate and truth; terms; steps and device; the oracle's or a set's line
}

MainWindow::MainWindow(const MethodRegistry& registry, QWidget* parent)
    : MainWindow(registry, defaultHistoryPath(), parent) {}

MainWindow::MainWindow(const MethodRegistry& registry, const QString& historyPath, QWidget* parent)
    : QMainWindow(parent),
      registry_(registry),
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
      hashing_(std::make_unique<HashingView>(this)) {
  setWindowTitle("milab: mutual-information estimators");
  comparison_->setHistoryPath(historyPath);
  history_->setObjectName("historyPanel");
  comparison_->addPage(history_, tr("History"));
  embedding_->hide();  // until a run draws one: a child in no layout would sit over the window's corner
  connect(history_, &HistoryPanel::overlayRequested, this, [this](const QList<qint64>& ids) {
    const QString err = overlayHistory(ids);
    statusBar()->showMessage(err.isEmpty() ? tr("Overlaid %1 from the history").arg(counted(ids.size(), "run")) : err);
  });
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
  resultLabel_->setMinimumHeight(kResultLines * resultLabel_->fontMetrics().lineSpacing());
  statusBar();  // made now: QMainWindow makes it on the first message, and the window's layout would jump then
  auto* right = new QWidget(this);
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
  auto* splitter = new QSplitter(this);
  splitter->addWidget(panelScroll);
  splitter->addWidget(right);
  splitter->setStretchFactor(1, 1);
  setCentralWidget(splitter);
  resize(1280, 720);
  if (!workspace_.geometry().isEmpty()) restoreGeometry(workspace_.geometry());

  QMenu* file = menuBar()->addMenu(tr("&File"));
  auto exportShown = [this](const QString& path) { return exportTo(path); };
  file->addAction(tr("Open data..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open data"), workspace_.lastFolder(),
                                                      tr("Tables (*.csv *.tsv *.txt *.npy *.npz);;All files (*)"));
    if (!path.isEmpty()) openData(path);
  });
  file->addSeparator();
  file->addAction(tr("Export plot as PNG..."), this,
                  [=] { saveWithDialog("milab.png", "PNG image (*.png)", exportShown); });
  file->addAction(tr("Export plot as PDF..."), this,
                  [=] { saveWithDialog("milab.pdf", "PDF document (*.pdf)", exportShown); });
  file->addAction(tr("Export plot as SVG..."), this,
                  [=] { saveWithDialog("milab.svg", "SVG image (*.svg)", exportShown); });
  file->addAction(tr("Export curve as CSV..."), this,
                  [=] { saveWithDialog("milab.csv", "CSV table (*.csv)", exportShown); });
  file->addAction(tr("Export summary as JSON..."), this,
                  [=] { saveWithDialog("milab.json", "JSON (*.json)", exportShown); });
  file->addSeparator();
  file->addAction(tr("Export results table as CSV..."), this, [this] {
    saveWithDialog("runs.csv", tr("CSV table (*.csv)"),
                   [this](const QString& p) { return comparison_->exportTable(p); });
  });
  file->addAction(tr("Export the set's figure..."), this, [this] {
    saveWithDialog("figure.png", tr("Images (*.png *.pdf *.svg)"),
                   [this](const QString& p) { return comparison_->exportFigure(p); });
  });
  file->addAction(tr("Save run set as experiment..."), this, [this] {
    saveWithDialog(
        "set.json", tr("Experiment (*.json)"), [this](const QString& p) { return comparison_->saveSet(p); },
        tr("Saved %1: milab-cli run %1 --out DIR reproduces it"));
  });
  file->addSeparator();
  file->addAction(tr("Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* experiments = menuBar()->addMenu(tr("&Experiments"));
  experiments->addAction(tr("Open experiment file..."), this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open experiment"), workspace_.lastFolder(), tr("Experiment (*.json)"));
    if (!path.isEmpty()) openExperimentWithDialogs(path);
  });
  experiments->addAction(tr("Open as comparison set..."), this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open run set"), workspace_.lastFolder(), tr("Experiment (*.json)"));
    if (path.isEmpty()) return;
    const QString err = openRunSet(path);
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Run set not opened"), err);
  });
  QMenu* recent = experiments->addMenu(tr("Recent experiment files"));
  recent->setObjectName("recentMenu");
  connect(recent, &QMenu::aboutToShow, this, [this, recent] {
    recent->clear();
    for (const QString& f : workspace_.recentFiles())
      recent->addAction(f, this, [this, f] { openExperimentWithDialogs(f); });
    if (recent->isEmpty()) recent->addAction(tr("(none yet)"))->setEnabled(false);
  });
  experiments->addSeparator();
  // The bundled presets (resources/milab.qrc): a single run fills the form, a grid asks for its folder.
  for (const QFileInfo& f : QDir(":/experiments").entryInfoList({"*.json"}, QDir::Files, QDir::Name))
    experiments->addAction(f.completeBaseName(), this,
                           [this, path = f.filePath()] { openExperimentWithDialogs(path); });

  experiments->addSeparator();
  experiments->addAction(tr("AMMI Figure 1(a): prior-order sweep..."), this,
                         [this] { startWithDialogs(sweep_.get(), ":/sweeps/ammi-figure1a.json"); });
  experiments->addAction(tr("Open prior-order sweep file..."), this, [this] { startWithDialogs(sweep_.get(), {}); });
  experiments->addSeparator();
  auto shapeHashing = [this](const QString& path) { return this->shapeHashing(path); };
  experiments->addAction(tr("Fashion-MNIST hashing: AMMI against LSH..."), this, [=, this] {
    startWithDialogs(hashing_.get(), ":/hashing/fashion-mnist-hashing.json", shapeHashing);
  });
  experiments->addAction(tr("Open hashing file..."), this,
                         [=, this] { startWithDialogs(hashing_.get(), {}, shapeHashing); });

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
  RunSpec spec = panel_->spec();
  spec.task = "data";
  spec.taskParams = {{"file", path}, {"x_columns", "0"}, {"y_columns", "1"}};
  spec.samples = 0;  // every row
  setSpec(spec);
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
  if (busy()) return false;
  RunSpec spec = panel_->spec();
  QList<RunSpec> specs;
  QString err = validateRunSpec(&spec, registry_);
  if (err.isEmpty()) err = expandRunSet(spec, panel_->comparedMethods(), panel_->varyText(), registry_, &specs);
  if (!err.isEmpty()) {
    panel_->showError(err);
    statusBar()->showMessage(err);
    refusal_ = err;
    return false;
  }
  panel_->clearErrors();
  comparison_->showPage(comparison_->plotWidget());
  comparison_->addRuns(specs, oracleCheck_->isChecked());
  panel_->setRunning(true);
  resultLabel_->setText(specs.size() == 1 ? tr("Running...") : tr("Running %1 runs...").arg(specs.size()));
  timer_->start();
  return true;
}

QString MainWindow::openRunSet(const QString& path) {
  workspace_.rememberFile(path);
  Experiment experiment;
  QList<GridCell> cells;
  QString err = busy() ? tr("experiment: another run or experiment is in progress; stop it first")
                       : readExperiment(path, &experiment);
  if (err.isEmpty()) err = expandExperiment(experiment, registry_, &cells);
  if (!err.isEmpty()) {
    statusBar()->showMessage(err);
    return err;
  }
  QList<RunSpec> specs;
  for (const GridCell& c : cells) specs << c.spec;
  setSpec(specs.first());
  comparison_->clear();
  comparison_->showPage(comparison_->plotWidget());
  comparison_->addRuns(specs, oracleCheck_->isChecked());
  panel_->setRunning(true);
  resultLabel_->setText(
      tr("Running %1 of %2...")
          .arg(specs.size() == 1 ? tr("the run") : tr("the %1").arg(counted(specs.size(), "run")), path));
  timer_->start();
  return {};
}

void MainWindow::previewConfiguredRun() {
  if (busy()) return;
  RunSpec spec = panel_->spec();
  // Every refusal shows on its field as the form is edited (MI 100 at dim 5), whole, and goes once fixed, with the
  // status bar's copy of it from a refused Run.
  if (const QString err = validateRunSpec(&spec, registry_); !err.isEmpty()) {
    panel_->showError(err);
    comparison_->previewRefused();
    return;
  }
  panel_->clearErrors();
  if (!refusal_.isEmpty() && statusBar()->currentMessage() == refusal_) statusBar()->clearMessage();
  refusal_.clear();
  // The oracle is the same bound with the task's analytic critic: offered only where the method has a critic to
  // swap and the task an exact one to give (not a table, not image views).
  RunSpec oracle = spec;
  oracle.methodParams.insert("critic", "oracle");
  const bool hasOracle = spec.methodParams.contains("critic") && validateRunSpec(&oracle, registry_).isEmpty();
  oracleCheck_->setEnabled(hasOracle);
  oracleCheck_->setToolTip(
      hasOracle ? tr("The best value each bound can reach at its K, drawn dotted in the run's colour when known")
                : tr("%1 on this task has no analytic critic to compare with").arg(spec.method));
  if (comparison_->size() > 0) return;
  const Run configured(spec, registry_.find(spec.method));   // built, never started: its target and ceilings
  comparison_->preview(spec, configured.result());
}

QString MainWindow::overlayHistory(const QList<qint64>& ids) {
  QList<StoredRun> runs;
  QList<QVariantMap> flats;
  for (qint64 id : ids) {
    const std::optional<StoredRun> stored = history_->store().find(id);
    if (!stored) return tr("history: no run %1").arg(id);
    runs << *stored;
    flats << stored->spec.toVariantMap();
  }
  const QStringList differing = differingKeys(flats);  // each overlay is named by what sets it apart
  for (const StoredRun& stored : runs) {
    RunSpec spec;
    runSpecFromFlat(stored.spec.toVariantMap(), registry_, &spec);  // a spec a plugin no longer takes still draws
    spec.steps = stored.spec.value("steps").toInt();
    RunResult result;
    result.targetName = stored.targetName;
    result.trueMi = stored.trueValue;
    result.ceilings = stored.ceilings;
    QStringList label{QStringLiteral("#%1 %2").arg(stored.id).arg(stored.method)};
    for (const QString& k : differing)
      if (stored.spec.contains(k)) label << keyValueText(k, stored.spec.value(k).toVariant());
    comparison_->overlayStored(label.join(' '), spec, result, history_->store().curve(stored.id));
  }
  return {};
}

QString MainWindow::reopenHistory(qint64 id) {
  const std::optional<StoredRun> stored = history_->store().find(id);
  if (!stored) return tr("history: no run %1").arg(id);
  RunSpec spec;
  const QString err = runSpecFromFlat(stored->spec.toVariantMap(), registry_, &spec);
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
    if (const Run* run = currentRun(); run && !done) {
      const int steps = run->stepsDone();
      statusBar()->showMessage(tr("%1 in the set; the last: step %2 / %3")
                                   .arg(counted(comparison_->size(), "run"))
                                   .arg(steps)
                                   .arg(run->spec().steps));
    }
    if (done) {
      timer_->stop();
      panel_->setRunning(false);
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

QString MainWindow::startBackground(BackgroundView* view, const QString& path, const QString& outDir) {
  const QString err =
      busy() ? tr("experiment: another run or experiment is in progress; stop it first") : view->start(path, outDir);
  if (!err.isEmpty()) {
    statusBar()->showMessage(err);
    return err;
  }
  active_ = view;
  // A tab beside the set's Curves, Figure and History (which stay a click away, the table below them), added the
  // first time such an experiment runs.
  comparison_->addPage(view->plot(), view->pageTitle());
  comparison_->showPage(view->plot());
  if (const RunSpec* spec = view->formSpec()) {  // the form shows what runs while it runs, then the user's own again
    formBeforeBackground_ = panel_->spec();
    setSpec(*spec);
  }
  panel_->setBanner(view->runningLine());
  panel_->setRunning(true);
  resultLabel_->setText(view->startedHtml());
  timer_->start();
  return {};
}

QString MainWindow::openExperiment(const QString& path, const QString& gridOutDir, const QVariantMap& gridOverrides,
                                   const std::optional<MpiLaunch>& gridMpi) {
  Experiment experiment;
  QList<GridCell> cells;
  QString err = readExperiment(path, &experiment);
  if (err.isEmpty() && experiment.isGrid()) {
    grid_->setOverrides(gridOverrides);
    grid_->setMpiLaunch(gridMpi);
    return startBackground(grid_.get(), path, gridOutDir);
  }
  if (err.isEmpty() && busy()) err = tr("experiment: another run or experiment is in progress; stop it first");
  if (err.isEmpty()) err = expandExperiment(experiment, registry_, &cells);
  if (!err.isEmpty()) {
    statusBar()->showMessage(err);
    return err;
  }
  setSpec(cells.first().spec);
  statusBar()->showMessage(tr("Opened %1: press Run").arg(path));
  return {};
}

QString MainWindow::startPriorOrderSweep(const QString& path, const QString& outDir) {
  return startBackground(sweep_.get(), path, outDir);
}

QString MainWindow::startHashing(const QString& path, const QString& outDir, const QVariantMap& overrides) {
  hashing_->setOverrides(overrides);
  return startBackground(hashing_.get(), path, outDir);
}

QList<BackgroundView*> MainWindow::backgroundViews() const { return {grid_.get(), sweep_.get(), hashing_.get()}; }

bool MainWindow::shapeHashing(const QString& path) {
  Experiment experiment;
  hashing_->setOverrides({});
  if (!readExperiment(path, &experiment).isEmpty()) return true;  // the start says what is wrong with the file
  HashingShapeDialog shape(experiment, this);
  if (shape.exec() != QDialog::Accepted) return false;
  hashing_->setOverrides(shape.overrides());
  return true;
}

const GridProgress* MainWindow::currentGrid() const { return grid_->progress(); }
const BackgroundJob<PriorOrderSweep>* MainWindow::currentSweep() const { return sweep_->job(); }
const BackgroundJob<HashingResult>* MainWindow::currentHashing() const { return hashing_->job(); }
QCustomPlot* MainWindow::gridPlot() const { return grid_->plot(); }
QCustomPlot* MainWindow::sweepPlot() const { return sweep_->plot(); }
QCustomPlot* MainWindow::hashingPlot() const { return hashing_->plot(); }

void MainWindow::openExperimentWithDialogs(const QString& path) {
  workspace_.rememberFile(path);
  Experiment experiment;
  if (readExperiment(path, &experiment).isEmpty() && experiment.isGrid()) {
    // A grid is shown first, its axes and steps editable (a preset can be shortened), then it asks for a folder.
    GridShapeDialog shape(experiment, registry_, this);
    if (shape.exec() != QDialog::Accepted) return;
    const QString outDir =
        QFileDialog::getExistingDirectory(this, tr("Folder for the results"), workspace_.lastFolder());
    if (outDir.isEmpty()) return;
    workspace_.rememberFolder(outDir);
    const QString err = openExperiment(path, outDir, shape.overrides(), shape.mpiLaunch());
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Experiment not started"), err);
    return;
  }
  const QString err = openExperiment(path);
  if (!err.isEmpty()) QMessageBox::warning(this, tr("Experiment not opened"), err);
}

void MainWindow::startWithDialogs(BackgroundView* view, QString path,
                                  const std::function<bool(const QString&)>& shape) {
  if (path.isEmpty())
    path =
        QFileDialog::getOpenFileName(this, tr("Open experiment"), workspace_.lastFolder(), tr("Experiment (*.json)"));
  if (path.isEmpty() || (shape && !shape(path))) return;
  const QString outDir = QFileDialog::getExistingDirectory(this, tr("Folder for the results"), workspace_.lastFolder());
  if (outDir.isEmpty()) return;
  workspace_.rememberFolder(outDir);
  workspace_.rememberFile(path);
  const QString err = startBackground(view, path, outDir);
  if (!err.isEmpty()) QMessageBox::warning(this, tr("Experiment not started"), err);
}

void MainWindow::showResult() {
  if (comparison_->size() > 0) showResultOf(comparison_->size() - 1);
}

void MainWindow::showResultOf(int index) {
  if (index < 0 || index >= comparison_->size()) return;
  const Run* run = comparison_->run(index);
  const RunResult r = run->result();
  // A table has no truth: the permutation baseline (y shuffled) says what no dependence reads as. Image views
  // have neither: their runs are read by their probe (the readings below).
  const QString truth = !std::isnan(r.trueMi)
                            ? tr("true %1 = %2").arg(r.targetName.toHtmlEscaped()).arg(r.trueMi, 0, 'f', 3)
                        : std::isnan(r.baseline) ? tr("%1 unknown").arg(r.targetName.toHtmlEscaped())
                                                 : tr("%1 unknown &middot; y shuffled %2 &plusmn; %3")
                                                       .arg(r.targetName.toHtmlEscaped())
                                                       .arg(r.baseline, 0, 'f', 3)
                                                       .arg(r.baselineStderr, 0, 'f', 3);
  QString text = tr("<b>%1</b>: estimate %2 &plusmn; %3 nats &middot; %4")
                     .arg(statusName(r.status))
                     .arg(r.estimate, 0, 'f', 3)
                     .arg(r.stderror, 0, 'f', 3)
                     .arg(truth);
  for (const Ceiling& c : r.ceilings) text += QStringLiteral(" &middot; %1 = %2").arg(c.name).arg(c.value, 0, 'f', 3);
  if (const Run* oracle = comparison_->oracle(index);
      oracle && oracle->isFinished() && oracle->result().status == RunStatus::Finished)
    text += tr(" &middot; oracle critic %1 &plusmn; %2")
                .arg(oracle->result().estimate, 0, 'f', 3)
                .arg(oracle->result().stderror, 0, 'f', 3);
  for (const NamedValue& v : r.readings)  // a learned representation's probe: untrained, trained, supervised
    text += QStringLiteral("<br><b>%1 = %2</b>").arg(v.name.toHtmlEscaped()).arg(v.value, 0, 'f', 4);
  if (!r.embedding.isEmpty()) {
    embedding_->setMap(r.embedding, comparison_->label(index));
    comparison_->addPage(embedding_, tr("Embedding"));
    text += tr("<br>the Embedding tab: its test images' features on two axes, and nearest neighbours");
  }
  for (const NamedValue& t : r.terms)
    text += QStringLiteral("<br>%1 = %2").arg(t.name.toHtmlEscaped()).arg(t.value, 0, 'f', 3);
  if (r.stepsDone == 0 && r.fromEvaluation)  // KSG: nothing trained, only its sample sets read
    text += (run->spec().finiteSamples() ? tr("<br>no training; the %1 samples read at once in %2 s on %3")
                                                   .arg(run->spec().samples)
                                             : tr("<br>no training; %1 sample sets read in %2 s on %3")
                                                   .arg(run->spec().evalBatches))
                .arg(r.seconds, 0, 'f', 1)
                .arg(r.device);
  else
    text += tr("<br>%1 steps in %2 s on %3").arg(r.stepsDone).arg(r.seconds, 0, 'f', 1).arg(r.device);
  if (!r.reason.isEmpty())
    text += QStringLiteral("<br><span style='color:#c0392b'>%1</span>").arg(r.reason.toHtmlEscaped());
  if (!r.warning.isEmpty())
    text += QStringLiteral("<br><span style='color:#b9770e'><b>warning</b>: %1</span>").arg(r.warning.toHtmlEscaped());
  if (comparison_->size() > 1)
    text = tr("The set holds %1 (the table below; click a row for its result); %2 %3:<br>")
               .arg(counted(comparison_->size(), "run"))
               .arg(index == comparison_->size() - 1 ? tr("the last,") : tr("row %1,").arg(index + 1))
               .arg(comparison_->label(index).toHtmlEscaped()) +
           text;
  resultLabel_->setText(text);
  statusBar()->showMessage(r.status == RunStatus::Failed ? r.reason : tr("Run %1").arg(statusName(r.status)));
}

void MainWindow::showMessage(const QString& line) {
  statusBar()->showMessage(line);
  resultLabel_->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(line.toHtmlEscaped()));
}

QString MainWindow::exportTo(const QString& path) {
  for (const BackgroundView* view : backgroundViews())
    if (comparison_->shownPage() == view->plot())  // a background experiment's tab is shown
      return view->running() ? tr("export: the experiment is still running") : view->exportTo(path);
  const Run* run = currentRun();
  if (!run) return tr("export: nothing to export yet, run an experiment first");
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "csv") return writeCurveCsv(path, run->curve());
  if (suffix == "json") return writeSummaryJson(path, run->spec(), run->result());
  return exportPlot(comparison_->plotWidget(), path, 1200, 640);
}

void MainWindow::saveWithDialog(const QString& defaultName, const QString& filter,
                                const std::function<QString(const QString&)>& write, const QString& done) {
  QString path = QFileDialog::getSaveFileName(this, tr("Save"), defaultName, filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += "." + QFileInfo(defaultName).suffix();
  const QString err = write(path);
  if (err.isEmpty())
    statusBar()->showMessage((done.isEmpty() ? tr("Wrote %1") : done).arg(path));
  else
    QMessageBox::warning(this, tr("Not written"), err);
}

}  // namespace milab
