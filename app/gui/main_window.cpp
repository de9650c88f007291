#include "gui/main_window.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QThread>
#include <QTimer>

#include "engine/experiment.h"
#include "engine/grid_scheduler.h"
#include "gui/panels/experiment_panel.h"
#include "method/method_registry.h"
#include "plot/grid_outputs.h"
#include "plot/grid_plot.h"
#include "plot/hashing_outputs.h"
#include "plot/hashing_plot.h"
#include "plot/plot_export.h"
#include "plot/prior_order_outputs.h"
#include "plot/prior_order_plot.h"
#include "plot/run_plot.h"
#include "results/hashing_files.h"
#include "results/prior_order_files.h"
#include "results/run_files.h"

namespace milab {

namespace {
constexpr int kRefreshMs = 33;  // ~30 Hz: smooth to the eye, a negligible cost beside training
}

MainWindow::MainWindow(const MethodRegistry& registry, QWidget* parent)
    : QMainWindow(parent),
      registry_(registry),
      panel_(new ExperimentPanel(registry, this)),
      plots_(new QStackedWidget(this)),
      plotWidget_(new QCustomPlot(this)),
      gridPlotWidget_(new QCustomPlot(this)),
      sweepPlotWidget_(new QCustomPlot(this)),
      hashingPlotWidget_(new QCustomPlot(this)),
      plot_(std::make_unique<RunPlot>(plotWidget_)),
      resultLabel_(new QLabel(this)),
      oracleCheck_(new QCheckBox(tr("Show the oracle: the same bound with the task's analytic critic"), this)),
      timer_(new QTimer(this)) {
  setWindowTitle("milab: mutual-information estimators");
  plotWidget_->setObjectName("runPlot");
  gridPlotWidget_->setObjectName("gridPlot");
  plots_->addWidget(plotWidget_);
  plots_->addWidget(gridPlotWidget_);
  sweepPlotWidget_->setObjectName("sweepPlot");
  plots_->addWidget(sweepPlotWidget_);
  hashingPlotWidget_->setObjectName("hashingPlot");
  plots_->addWidget(hashingPlotWidget_);
  resultLabel_->setObjectName("resultLabel");
  resultLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* right = new QWidget(this);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->addWidget(plots_, 1);
  oracleCheck_->setObjectName("oracleCheck");
  oracleCheck_->setChecked(true);
  oracleCheck_->setToolTip(tr("The best value this bound can reach at this K, drawn as a dotted line when known"));
  rightLayout->addWidget(oracleCheck_);
  rightLayout->addWidget(resultLabel_);
  auto* splitter = new QSplitter(this);
  splitter->addWidget(panel_);
  splitter->addWidget(right);
  splitter->setStretchFactor(1, 1);
  setCentralWidget(splitter);
  resize(1200, 760);

  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("Export plot as PNG..."), this, [this] { exportWithDialog("PNG image (*.png)", "png"); });
  file->addAction(tr("Export plot as PDF..."), this, [this] { exportWithDialog("PDF document (*.pdf)", "pdf"); });
  file->addAction(tr("Export plot as SVG..."), this, [this] { exportWithDialog("SVG image (*.svg)", "svg"); });
  file->addAction(tr("Export curve as CSV..."), this, [this] { exportWithDialog("CSV table (*.csv)", "csv"); });
  file->addAction(tr("Export summary as JSON..."), this, [this] { exportWithDialog("JSON (*.json)", "json"); });
  file->addSeparator();
  file->addAction(tr("Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* experiments = menuBar()->addMenu(tr("&Experiments"));
  experiments->addAction(tr("Open experiment file..."), this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open experiment"), QString(), tr("Experiment (*.json)"));
    if (!path.isEmpty()) openExperimentWithDialogs(path);
  });
  experiments->addSeparator();
  // The bundled presets (resources/milab.qrc): a single run fills the form, a grid asks for its folder.
  for (const QFileInfo& f : QDir(":/experiments").entryInfoList({"*.json"}, QDir::Files, QDir::Name))
    experiments->addAction(f.completeBaseName(), this,
                           [this, path = f.filePath()] { openExperimentWithDialogs(path); });

  experiments->addSeparator();
  experiments->addAction(tr("AMMI Figure 1(a): prior-order sweep..."), this,
                         [this] { sweepWithDialogs(":/sweeps/ammi-figure1a.json"); });
  experiments->addAction(tr("Open prior-order sweep file..."), this, [this] { sweepWithDialogs({}); });
  experiments->addSeparator();
  experiments->addAction(tr("Fashion-MNIST hashing: AMMI against LSH..."), this,
                         [this] { hashingWithDialogs(":/hashing/fashion-mnist-hashing.json"); });
  experiments->addAction(tr("Open hashing file..."), this, [this] { hashingWithDialogs({}); });

  connect(panel_, &ExperimentPanel::runRequested, this, &MainWindow::startRun);
  connect(panel_, &ExperimentPanel::stopRequested, this, &MainWindow::stopRun);
  connect(timer_, &QTimer::timeout, this, &MainWindow::tick);
  timer_->setInterval(kRefreshMs);

  for (const PluginLoadError& e : registry_.errors())
    statusBar()->showMessage(tr("Plugin %1 not loaded: %2").arg(QFileInfo(e.file).fileName(), e.reason));
  if (registry_.methods().isEmpty())
    panel_->showError(tr("method: no method plugin found in %1").arg(MethodRegistry::defaultPluginDirs().join(", ")));
}

MainWindow::~MainWindow() = default;

void MainWindow::setSpec(const RunSpec& spec) { panel_->setSpec(spec); }

bool MainWindow::busy() const {
  return gridRunning_ || sweepRunning_ || hashingRunning_ || (run_ && !run_->isFinished());
}

bool MainWindow::startRun() {
  if (busy()) return false;
  RunSpec spec = panel_->spec();
  const QString err = validateRunSpec(&spec, registry_);
  if (!err.isEmpty()) {
    panel_->showError(err);
    statusBar()->showMessage(err);
    return false;
  }
  panel_->clearErrors();
  plots_->setCurrentWidget(plotWidget_);
  run_ = std::make_unique<Run>(spec, registry_.find(spec.method));
  run_->start();
  const RunResult known = run_->result();
  plot_->reset(QStringLiteral("%1 on %2").arg(spec.method, spec.task), spec.steps, {known.targetName, known.trueMi},
               known.ceilings);
  startOracle(spec);
  panel_->setRunning(true);
  resultLabel_->setText(tr("Running..."));
  timer_->start();
  return true;
}

void MainWindow::startOracle(const RunSpec& learned) {
  oracle_.reset();
  oracleShown_ = false;
  if (!oracleCheck_->isChecked() || learned.methodParams.value("critic").toString() != "learned") return;
  // Nothing to train: one step, then the usual evaluation batches. It runs beside the learned run.
  RunSpec spec = learned;
  spec.methodParams.insert("critic", "oracle");
  spec.steps = 1;
  if (!validateRunSpec(&spec, registry_).isEmpty()) return;
  oracle_ = std::make_unique<Run>(spec, registry_.find(spec.method));
  oracle_->start();
}

void MainWindow::stopRun() {
  if (run_) run_->cancel();
  if (oracle_) oracle_->cancel();
  if (gridRunning_) grid_->cancel();        // the cells that ran are still written, then the closing files
  if (sweepRunning_) sweep_->cancel();      // the orders swept so far are still written
  if (hashingRunning_) hashing_->cancel();  // so are the rows scored so far
}

void MainWindow::tick() {
  if (gridRunning_)
    drainGrid();
  else if (sweepRunning_)
    drainSweep();
  else if (hashingRunning_)
    drainHashing();
  else
    drainRun();
}

QString MainWindow::openExperiment(const QString& path, const QString& gridOutDir) {
  Experiment experiment;
  QList<GridCell> cells;
  QString err = busy() ? tr("experiment: a run or a grid is in progress; stop it first") : QString();
  if (err.isEmpty()) err = readExperiment(path, &experiment);
  if (err.isEmpty()) err = expandExperiment(experiment, registry_, &cells);
  if (err.isEmpty() && experiment.isGrid() && gridOutDir.isEmpty())
    err = tr("out: a grid needs a folder for its results");
  if (err.isEmpty() && experiment.isGrid() && !QDir().mkpath(gridOutDir))
    err = tr("out: cannot create folder '%1'").arg(gridOutDir);
  if (!err.isEmpty()) {
    statusBar()->showMessage(err);
    return err;
  }
  if (!experiment.isGrid()) {
    setSpec(cells.first().spec);
    statusBar()->showMessage(tr("Opened %1: press Run").arg(path));
    return {};
  }
  // One cell per spare core: each run takes one intra-op thread, and the window keeps a core.
  grid_ = std::make_unique<GridScheduler>(cells, gridOutDir, std::max(1, QThread::idealThreadCount() - 1), registry_);
  gridOutDir_ = gridOutDir;
  gridRunning_ = true;
  drawGridPlot(gridPlotWidget_, {});
  plots_->setCurrentWidget(gridPlotWidget_);
  panel_->setRunning(true);
  resultLabel_->setText(tr("Running a grid of %1 cells into %2").arg(cells.size()).arg(gridOutDir.toHtmlEscaped()));
  timer_->start();
  return {};
}

void MainWindow::openExperimentWithDialogs(const QString& path) {
  Experiment experiment;
  QString err = readExperiment(path, &experiment);
  if (err.isEmpty()) {
    QString outDir;
    if (experiment.isGrid()) {
      outDir = QFileDialog::getExistingDirectory(this, tr("Folder for the grid's results"));
      if (outDir.isEmpty()) return;
    }
    err = openExperiment(path, outDir);
  }
  if (!err.isEmpty()) QMessageBox::warning(this, tr("Experiment not opened"), err);
}

void MainWindow::drainGrid() {
  if (!grid_->poll().isEmpty()) drawGridPlot(gridPlotWidget_, grid_->endedResults());
  statusBar()->showMessage(tr("grid: %1 of %2 cells ended").arg(grid_->endedCount()).arg(grid_->results().size()));
  if (grid_->isDone()) finishGrid();
}

void MainWindow::finishGrid() {
  timer_->stop();
  const QStringList errors = grid_->errors() + writeGridOutputs(gridOutDir_, grid_->results());
  gridRunning_ = false;
  panel_->setRunning(false);
  int failed = 0, unfinished = 0, reused = 0;
  for (const CellResult& c : grid_->results()) {
    failed += c.result.status == RunStatus::Failed;
    unfinished += c.result.status != RunStatus::Finished && c.result.status != RunStatus::Failed;
    reused += c.reused;
  }
  const QDir out(gridOutDir_);
  QString text = tr("<b>grid %1</b>: %2 cells, %3 failed, %4 not finished, %5 reused from an earlier run"
                    "<br>table %6<br>plots %7")
                     .arg(grid_->wasCancelled() ? tr("cancelled") : tr("finished"))
                     .arg(grid_->results().size())
                     .arg(failed)
                     .arg(unfinished)
                     .arg(reused)
                     .arg(out.filePath("grid.csv").toHtmlEscaped())
                     .arg(out.filePath("estimate_vs_K.{png,pdf,svg}").toHtmlEscaped());
  for (const QString& e : errors)
    text += QStringLiteral("<br><span style='color:#c0392b'>%1</span>").arg(e.toHtmlEscaped());
  resultLabel_->setText(text);
  statusBar()->showMessage(errors.isEmpty() ? tr("Wrote %1").arg(out.filePath("grid.csv")) : errors.first());
}

void MainWindow::drainRun() {
  if (!run_) return;
  const bool finished = run_->isFinished();  // read before draining so no point is left behind
  const QVector<CurvePoint> points = run_->takeNewPoints();
  plot_->append(points);
  if (oracle_ && !oracleShown_ && oracle_->isFinished()) {
    oracleShown_ = true;
    const RunResult o = oracle_->result();
    if (o.status == RunStatus::Finished) plot_->addReference(tr("oracle critic"), o.estimate);
  }
  if (!points.isEmpty())
    statusBar()->showMessage(tr("step %1 / %2   estimate %3 nats")
                                 .arg(points.last().step)
                                 .arg(run_->spec().steps)
                                 .arg(points.last().estimate, 0, 'f', 3));
  if (finished && (!oracle_ || oracleShown_)) {
    timer_->stop();
    panel_->setRunning(false);
    showResult();
  }
}

void MainWindow::showResult() {
  const RunResult r = run_->result();
  QString text = tr("<b>%1</b>: estimate %2 &plusmn; %3 nats &middot; true %4 = %5")
                     .arg(statusName(r.status))
                     .arg(r.estimate, 0, 'f', 3)
                     .arg(r.stderror, 0, 'f', 3)
                     .arg(r.targetName.toHtmlEscaped())
                     .arg(r.trueMi, 0, 'f', 3);
  for (const Ceiling& c : r.ceilings) text += QStringLiteral(" &middot; %1 = %2").arg(c.name).arg(c.value, 0, 'f', 3);
  if (oracle_ && oracle_->isFinished() && oracle_->result().status == RunStatus::Finished)
    text += tr(" &middot; oracle critic %1").arg(oracle_->result().estimate, 0, 'f', 3);
  for (const NamedValue& t : r.terms)
    text += QStringLiteral("<br>%1 = %2").arg(t.name.toHtmlEscaped()).arg(t.value, 0, 'f', 3);
  text += tr("<br>%1 steps in %2 s on %3").arg(r.stepsDone).arg(r.seconds, 0, 'f', 1).arg(r.device);
  if (!r.reason.isEmpty())
    text += QStringLiteral("<br><span style='color:#c0392b'>%1</span>").arg(r.reason.toHtmlEscaped());
  resultLabel_->setText(text);
  statusBar()->showMessage(r.status == RunStatus::Failed ? r.reason : tr("Run %1").arg(statusName(r.status)));
}

QString MainWindow::startPriorOrderSweep(const QString& path, const QString& outDir) {
  Experiment experiment;
  PriorOrderSweepSpec spec;
  QString err = busy() ? tr("experiment: a run or a grid is in progress; stop it first") : QString();
  if (err.isEmpty()) err = readExperiment(path, &experiment);
  if (err.isEmpty()) err = priorOrderSweepFromExperiment(experiment, registry_, &spec);
  if (err.isEmpty() && outDir.isEmpty()) err = tr("out: the sweep needs a folder for its results");
  if (err.isEmpty() && !QDir().mkpath(outDir)) err = tr("out: cannot create folder '%1'").arg(outDir);
  if (!err.isEmpty()) {
    statusBar()->showMessage(err);
    return err;
  }
  sweepSpec_ = spec;
  const MethodPlugin* method = registry_.find(spec.encoder.method);
  sweep_ = std::make_unique<BackgroundJob<PriorOrderSweep>>(
      [spec, method](const std::atomic<bool>& cancel, std::atomic<int>& progress) {
        return runPriorOrderSweep(
            spec, *method, [&progress](const PriorOrderPoint&) { ++progress; }, cancel);
      });
  sweep_->start();
  sweepOutDir_ = outDir;
  sweepRunning_ = true;
  sweepPlotWidget_->clearPlottables();
  sweepPlotWidget_->replot();
  plots_->setCurrentWidget(sweepPlotWidget_);
  panel_->setRunning(true);
  resultLabel_->setText(tr("Training the %1 encoder (m = %2) for %3 steps, then the prior orders up to %4")
                            .arg(spec.encoder.method)
                            .arg(spec.encoder.methodParams.value("bits").toInt())
                            .arg(spec.encoder.steps)
                            .arg(spec.sweep.value("max_order").toInt()));
  timer_->start();
  return {};
}

void MainWindow::sweepWithDialogs(QString path) {
  if (path.isEmpty())
    path = QFileDialog::getOpenFileName(this, tr("Open prior-order sweep"), QString(), tr("Experiment (*.json)"));
  if (path.isEmpty()) return;
  const QString outDir = QFileDialog::getExistingDirectory(this, tr("Folder for the sweep's results"));
  if (outDir.isEmpty()) return;
  const QString err = startPriorOrderSweep(path, outDir);
  if (!err.isEmpty()) QMessageBox::warning(this, tr("Sweep not started"), err);
}

void MainWindow::drainSweep() {
  const int done = sweep_->progress();
  statusBar()->showMessage(done == 0 ? tr("prior-order sweep: training the encoder")
                                     : tr("prior-order sweep: %1 orders done").arg(done));
  if (sweep_->isFinished()) finishSweep();
}

void MainWindow::finishSweep() {
  timer_->stop();
  const PriorOrderSweep& r = sweep_->result();
  const QStringList errors = writePriorOrderOutputs(sweepOutDir_, sweepSpec_, r);
  drawPriorOrderPlot(sweepPlotWidget_, r, priorOrderPlotTitle(sweepSpec_));
  sweepRunning_ = false;
  panel_->setRunning(false);
  const QString status = !r.error.isEmpty() ? tr("failed") : r.cancelled ? tr("cancelled") : tr("finished");
  QString text = tr("<b>prior-order sweep %1</b>: brute-force H(Z) = %2 &middot; m log 2 = %3 &middot; %4 orders")
                     .arg(status)
                     .arg(r.bruteForceEntropy, 0, 'f', 4)
                     .arg(r.uniform, 0, 'f', 4)
                     .arg(r.points.size());
  if (!r.points.isEmpty())
    text += tr("<br>best order-%1 prior %2 nats, order-%3 prior %4 nats")
                .arg(r.points.first().order)
                .arg(r.points.first().optimal, 0, 'f', 4)
                .arg(r.points.last().order)
                .arg(r.points.last().optimal, 0, 'f', 4);
  text += tr("<br>files in %1").arg(sweepOutDir_.toHtmlEscaped());
  for (const QString& e : QStringList{r.error} + errors)
    if (!e.isEmpty()) text += QStringLiteral("<br><span style='color:#c0392b'>%1</span>").arg(e.toHtmlEscaped());
  resultLabel_->setText(text);
  statusBar()->showMessage(tr("Prior-order sweep %1").arg(status));
}

QString MainWindow::startHashing(const QString& path, const QString& outDir) {
  Experiment experiment;
  HashingSpec spec;
  QString err = busy() ? tr("experiment: a run or a grid is in progress; stop it first") : QString();
  if (err.isEmpty()) err = readExperiment(path, &experiment);
  if (err.isEmpty()) err = hashingSpecFromExperiment(experiment, &spec);
  if (err.isEmpty()) err = hashingDataMissing();
  if (err.isEmpty() && outDir.isEmpty()) err = tr("out: hashing needs a folder for its results");
  if (err.isEmpty() && !QDir().mkpath(outDir)) err = tr("out: cannot create folder '%1'").arg(outDir);
  if (!err.isEmpty()) {
    statusBar()->showMessage(err);
    return err;
  }
  hashingSpec_ = spec;
  hashing_ = std::make_unique<BackgroundJob<HashingResult>>(
      [spec](const std::atomic<bool>& cancel, std::atomic<int>& progress) {
        return runHashing(
            spec, [&progress](const HashingRow&) { ++progress; }, cancel);
      });
  hashing_->start();
  hashingOutDir_ = outDir;
  hashingRunning_ = true;
  hashingPlotWidget_->clearPlottables();
  hashingPlotWidget_->replot();
  plots_->setCurrentWidget(hashingPlotWidget_);
  panel_->setRunning(true);
  QStringList lengths;
  for (int m : spec.bits) lengths << QString::number(m);
  resultLabel_->setText(tr("Hashing Fashion-MNIST into m = %1 bits with AMMI and LSH").arg(lengths.join(", ")));
  timer_->start();
  return {};
}

void MainWindow::hashingWithDialogs(QString path) {
  if (path.isEmpty())
    path = QFileDialog::getOpenFileName(this, tr("Open hashing experiment"), QString(), tr("Experiment (*.json)"));
  if (path.isEmpty()) return;
  const QString outDir = QFileDialog::getExistingDirectory(this, tr("Folder for the hashing results"));
  if (outDir.isEmpty()) return;
  const QString err = startHashing(path, outDir);
  if (!err.isEmpty()) QMessageBox::warning(this, tr("Hashing not started"), err);
}

void MainWindow::drainHashing() {
  statusBar()->showMessage(
      tr("hashing: %1 of %2 rows scored").arg(hashing_->progress()).arg(2 * hashingSpec_.bits.size()));
  if (hashing_->isFinished()) finishHashing();
}

void MainWindow::finishHashing() {
  timer_->stop();
  const HashingResult& r = hashing_->result();
  const QStringList errors = writeHashingOutputs(hashingOutDir_, hashingSpec_, r);
  const int topK = hashingSpec_.params.value("top_k").toInt();
  drawHashingPlot(hashingPlotWidget_, r, topK);
  hashingRunning_ = false;
  panel_->setRunning(false);
  const QString status = !r.error.isEmpty() ? tr("failed") : r.cancelled ? tr("cancelled") : tr("finished");
  QString text = tr("<b>hashing %1</b>: top-%2 precision, %3 queries against %4 images")
                     .arg(status)
                     .arg(topK)
                     .arg(r.queries)
                     .arg(r.trainImages);
  for (const HashingRow& row : r.rows)
    text += tr("<br>m = %1 %2: %3 (%4 distinct codes)")
                .arg(row.bits)
                .arg(row.method)
                .arg(row.precision, 0, 'f', 4)
                .arg(row.distinctCodes);
  text += tr("<br>files in %1").arg(hashingOutDir_.toHtmlEscaped());
  for (const QString& e : QStringList{r.error} + errors)
    if (!e.isEmpty()) text += QStringLiteral("<br><span style='color:#c0392b'>%1</span>").arg(e.toHtmlEscaped());
  resultLabel_->setText(text);
  statusBar()->showMessage(tr("Hashing %1").arg(status));
}

QString MainWindow::exportTo(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (plots_->currentWidget() == hashingPlotWidget_) {  // a hashing experiment is shown
    if (hashingRunning_) return tr("export: hashing is still running");
    if (suffix == "csv") return writeHashingCsv(path, hashing_->result().rows);
    if (suffix == "json") return writeHashingSummary(path, hashingSpec_, hashing_->result());
    return exportPlot(hashingPlotWidget_, path);
  }
  if (plots_->currentWidget() == sweepPlotWidget_) {  // a prior-order sweep is shown
    if (sweepRunning_) return tr("export: the sweep is still running");
    if (suffix == "csv") return writePriorOrderCsv(path, sweep_->result());
    if (suffix == "json") return writePriorOrderSummary(path, sweepSpec_, sweep_->result());
    return exportPlot(sweepPlotWidget_, path);
  }
  if (plots_->currentWidget() == gridPlotWidget_) {  // a grid is shown: its plot and table
    if (suffix == "csv") return writeGridCsv(path, grid_->results());
    if (suffix == "json") return tr("export: a grid's summaries are its cells' files, %1").arg(gridOutDir_ + "/cells");
    return exportPlot(gridPlotWidget_, path);
  }
  if (!run_) return tr("export: nothing to export yet, run an experiment first");
  if (suffix == "csv") return writeCurveCsv(path, run_->curve());
  if (suffix == "json") return writeSummaryJson(path, run_->spec(), run_->result());
  return exportPlot(plotWidget_, path);
}

void MainWindow::exportWithDialog(const QString& filter, const QString& suffix) {
  QString path = QFileDialog::getSaveFileName(this, tr("Export"), QStringLiteral("milab.%1").arg(suffix), filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += "." + suffix;
  const QString err = exportTo(path);
  if (err.isEmpty())
    statusBar()->showMessage(tr("Wrote %1").arg(path));
  else
    QMessageBox::warning(this, tr("Export failed"), err);
}

}  // namespace milab
