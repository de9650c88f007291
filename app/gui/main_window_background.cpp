// MainWindow's background experiments: a grid (or one run) from an experiment file, the prior-order sweep and
// hashing, each started from its file (with the dialog that reshapes it), shown as a tab of its own while the
// form shows what runs, and the accessors tests read them by.
#include <qcustomplot.h>

#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>

#include "engine/experiment.h"
#include "gui/file_dialogs.h"
#include "gui/main_window.h"
#include "gui/panels/experiment_panel.h"
#include "gui/panels/grid_shape_dialog.h"
#include "gui/panels/hashing_shape_dialog.h"
#include "gui/views/comparison_view.h"
#include "gui/views/grid_view.h"
#include "gui/views/hashing_view.h"
#include "gui/views/prior_order_view.h"

namespace milab {

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
  statusBar()->showMessage(panel_->clearSetChoices()
                               ? tr("Opened %1: press Run (the ticked methods and the vary list were cleared: the "
                                    "file is the whole run)")
                                     .arg(path)
                               : tr("Opened %1: press Run").arg(path));
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
  HashingShapeDialog shape(experiment, registry_, this);
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
    const QString outDir = askFolder(this, tr("Folder for the results"), workspace_.lastFolder());
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
    path = askOpenFile(this, tr("Open experiment"), workspace_.lastFolder(), tr("Experiment (*.json)"));
  if (path.isEmpty() || (shape && !shape(path))) return;
  const QString outDir = askFolder(this, tr("Folder for the results"), workspace_.lastFolder());
  if (outDir.isEmpty()) return;
  workspace_.rememberFolder(outDir);
  workspace_.rememberFile(path);
  const QString err = startBackground(view, path, outDir);
  if (!err.isEmpty()) QMessageBox::warning(this, tr("Experiment not started"), err);
}

}  // namespace milab
