#pragma once
// The window only wires: the experiment panel starts and stops runs, a 30 Hz timer drains the run's curve
// into the plot (or polls a grid's cells into its estimate-vs-K plot), the File menu exports through the same
// pure functions the CLI uses, the Experiments menu opens experiment files and the bundled presets.
#include <QMainWindow>
#include <memory>

#include "engine/background_job.h"
#include "engine/prior_order_sweep.h"
#include "engine/run.h"
#include "hashing/hashing_experiment.h"

class QCheckBox;
class QCustomPlot;
class QLabel;
class QStackedWidget;
class QTimer;

namespace milab {

class ExperimentPanel;
class GridScheduler;
class MethodRegistry;
class RunPlot;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const MethodRegistry& registry, QWidget* parent = nullptr);
  ~MainWindow() override;

  ExperimentPanel* panel() const { return panel_; }
  RunPlot* plot() const { return plot_.get(); }
  const Run* currentRun() const { return run_.get(); }
  // The same bound with the task's analytic critic, run beside a learned one (null when not shown).
  const Run* oracleRun() const { return oracle_.get(); }

  void setSpec(const RunSpec& spec);
  bool startRun();  // false (and the error shown on its field) when the form is invalid
  void stopRun();
  // An experiment file: one run fills the form; a grid starts at once, its cells run one per spare core and
  // written under `gridOutDir` as they end (cells already finished there are reused), then grid.csv and
  // estimate_vs_K.{png,pdf,svg}. Returns "" or the error line, also shown on the status bar.
  QString openExperiment(const QString& path, const QString& gridOutDir = {});
  const GridScheduler* currentGrid() const { return grid_.get(); }
  QCustomPlot* gridPlot() const { return gridPlotWidget_; }
  // A prior-order sweep file (AMMI Figure 1(a), as `milab-cli prior-orders` takes): the encoder trains and r
  // sweeps on a worker thread, then the figure is drawn and prior_orders.csv, summary.json and
  // prior_orders.{png,pdf,svg} are written into `outDir`. "" or the error line.
  QString startPriorOrderSweep(const QString& path, const QString& outDir);
  const BackgroundJob<PriorOrderSweep>* currentSweep() const { return sweep_.get(); }
  QCustomPlot* sweepPlot() const { return sweepPlotWidget_; }
  // A hashing file (Fashion-MNIST, AMMI against LSH, as `milab-cli hashing` takes), likewise: on a worker
  // thread, then the precision-vs-m figure, hashing.csv, summary.json and hashing.{png,pdf,svg} in `outDir`.
  QString startHashing(const QString& path, const QString& outDir);
  const BackgroundJob<HashingResult>* currentHashing() const { return hashing_.get(); }
  QCustomPlot* hashingPlot() const { return hashingPlotWidget_; }

  // Writes the current run by suffix: .png/.pdf/.svg (plot), .csv (curve), .json (summary). "" or an error.
  QString exportTo(const QString& path);

 private:
  bool busy() const;
  void startOracle(const RunSpec& learned);
  void tick();
  void drainRun();
  void drainGrid();
  void finishGrid();
  void openExperimentWithDialogs(const QString& path);
  void drainSweep();
  void finishSweep();
  void sweepWithDialogs(QString path);
  void drainHashing();
  void finishHashing();
  void hashingWithDialogs(QString path);
  void showResult();
  void exportWithDialog(const QString& filter, const QString& suffix);

  const MethodRegistry& registry_;
  ExperimentPanel* panel_;
  QStackedWidget* plots_;  // the run's plot, or the grid's
  QCustomPlot* plotWidget_;
  QCustomPlot* gridPlotWidget_;
  QCustomPlot* sweepPlotWidget_;
  QCustomPlot* hashingPlotWidget_;
  std::unique_ptr<RunPlot> plot_;
  QLabel* resultLabel_;
  QCheckBox* oracleCheck_;
  QTimer* timer_;
  std::unique_ptr<Run> run_;
  std::unique_ptr<Run> oracle_;
  bool oracleShown_ = false;
  std::unique_ptr<GridScheduler> grid_;
  QString gridOutDir_;
  bool gridRunning_ = false;  // until its closing files are written
  std::unique_ptr<BackgroundJob<PriorOrderSweep>> sweep_;
  PriorOrderSweepSpec sweepSpec_;
  QString sweepOutDir_;
  bool sweepRunning_ = false;  // until its files are written
  std::unique_ptr<BackgroundJob<HashingResult>> hashing_;
  HashingSpec hashingSpec_;
  QString hashingOutDir_;
  bool hashingRunning_ = false;  // until its files are written
};

}  // namespace milab
