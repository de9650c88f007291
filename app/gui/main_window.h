#pragma once
// The window only wires: the experiment panel starts and stops runs, a 30 Hz timer drains the run's curve
// into the plot, the File menu exports through the same pure functions the CLI uses.
#include <QMainWindow>
#include <memory>

#include "engine/run.h"

class QCheckBox;
class QCustomPlot;
class QLabel;
class QTimer;

namespace milab {

class ExperimentPanel;
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
  // Writes the current run by suffix: .png/.pdf/.svg (plot), .csv (curve), .json (summary). "" or an error.
  QString exportTo(const QString& path);

 private:
  void startOracle(const RunSpec& learned);
  void drainRun();
  void showResult();
  void exportWithDialog(const QString& filter, const QString& suffix);

  const MethodRegistry& registry_;
  ExperimentPanel* panel_;
  QCustomPlot* plotWidget_;
  std::unique_ptr<RunPlot> plot_;
  QLabel* resultLabel_;
  QCheckBox* oracleCheck_;
  QTimer* timer_;
  std::unique_ptr<Run> run_;
  std::unique_ptr<Run> oracle_;
  bool oracleShown_ = false;
};

}  // namespace milab
