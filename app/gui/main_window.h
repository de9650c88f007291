#pragma once
// The window only wires: the experiment panel starts and stops runs, a 30 Hz timer drains the run's curve
// into the plot (or follows a background view: a grid, the prior-order sweep, hashing), the File menu exports
// whatever plot is shown through the same pure functions the CLI uses, the Experiments menu opens experiment
// files and the bundled presets.
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

class BackgroundView;
class ExperimentPanel;
class GridScheduler;
class GridView;
class HashingView;
class MethodRegistry;
class PriorOrderView;
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
  void stopRun();   // the run, or the background experiment: what ended is kept

  // Each returns "" or the error line, also shown on the status bar; a background experiment starts at once.
  // An experiment file: one run fills the form; a grid runs its cells one per spare core into `gridOutDir`
  // (cells already finished there are reused), then grid.csv and estimate_vs_K.{png,pdf,svg}.
  QString openExperiment(const QString& path, const QString& gridOutDir = {});
  // A prior-order sweep file (AMMI Figure 1(a), as `milab-cli prior-orders` takes) into `outDir`.
  QString startPriorOrderSweep(const QString& path, const QString& outDir);
  // A hashing file (Fashion-MNIST, AMMI against LSH, as `milab-cli hashing` takes) into `outDir`.
  QString startHashing(const QString& path, const QString& outDir);

  const GridScheduler* currentGrid() const;
  const BackgroundJob<PriorOrderSweep>* currentSweep() const;
  const BackgroundJob<HashingResult>* currentHashing() const;
  QCustomPlot* gridPlot() const;
  QCustomPlot* sweepPlot() const;
  QCustomPlot* hashingPlot() const;

  // Writes what is shown, by suffix: .png/.pdf/.svg (the plot), .csv (the curve or table), .json (the summary).
  // "" or an error.
  QString exportTo(const QString& path);

 private:
  bool busy() const;
  QString startBackground(BackgroundView* view, const QString& path, const QString& outDir);
  void startWithDialogs(BackgroundView* view, QString path);
  void openExperimentWithDialogs(const QString& path);
  void startOracle(const RunSpec& learned);
  void tick();
  void drainRun();
  void showResult();
  void exportWithDialog(const QString& filter, const QString& suffix);

  const MethodRegistry& registry_;
  ExperimentPanel* panel_;
  QStackedWidget* plots_;  // the run's plot, or a background view's
  QCustomPlot* plotWidget_;
  std::unique_ptr<RunPlot> plot_;
  QLabel* resultLabel_;
  QCheckBox* oracleCheck_;
  QTimer* timer_;
  std::unique_ptr<Run> run_;
  std::unique_ptr<Run> oracle_;
  bool oracleShown_ = false;
  std::unique_ptr<GridView> grid_;
  std::unique_ptr<PriorOrderView> sweep_;
  std::unique_ptr<HashingView> hashing_;
  BackgroundView* active_ = nullptr;  // the background view last started
};

}  // namespace milab
