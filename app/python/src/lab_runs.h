#pragma once
// The runs the Python module starts: an experiment's cells, `jobs` at a time (engine/run_queue.h), each cell's files
// written as the runner writes them when an `out` folder is given (summary.json, curve.csv; a grid's cells in
// folders of their own and grid.csv beside them; the figures are the runner's and the window's), and its row
// recorded in the run history when asked (origin "python"). The module polls on its own clock with the GIL released
// between polls, so that Ctrl-C and the caller's other threads are served; nothing here touches Python.
#include <QJsonObject>
#include <QLockFile>
#include <QString>
#include <QStringList>
#include <memory>

#include "engine/experiment.h"
#include "engine/run_queue.h"
#include "results/grid_files.h"

namespace milab {

struct ModuleRunOptions {
  QString out;  // "" writes no files
  bool record = false;
  QString history;  // "" is the runner's default history ($MILAB_DB, else the user's data folder)
  int jobs = 1;
};

struct CellOutcome {
  QString name;
  QJsonObject summary;  // what summary.json holds (results/run_files.h)
  QVector<CurvePoint> curve;
  QStringList warnings;  // files not written, a history row not recorded
};

// The experiment's cells, every one validated: "" or the runner's error line (the key and its allowed range).
// `source` names the experiment in messages (a file's path, "the keys").
QString moduleCells(const QByteArray& experimentJson, const QString& source, QList<GridCell>* cells);
// "" or why the options cannot be used (jobs out of range, an `out` folder that cannot be claimed).
QString checkRunOptions(const ModuleRunOptions& options);

class ModuleRuns {
 public:
  ModuleRuns(QList<GridCell> cells, ModuleRunOptions options, bool grid);
  ~ModuleRuns();

  // "" or why the `out` folder cannot be written (claimed before the first step, as the runner does).
  QString claimOut();
  void start();
  // Starts what can start and writes what ended; true once every cell has ended and been written.
  bool poll();
  void cancelAll();
  qint64 stepsDone() const;
  qint64 stepsTotal() const;
  int cellsEnded() const { return ended_; }
  int cellCount() const { return int(cells_.size()); }
  // The latest estimate of the cell that most recently made progress (NaN before the first step); takes the runs'
  // new points.
  double latestEstimate();
  // In cell order, once poll() returned true.
  const QList<CellOutcome>& outcomes() const { return outcomes_; }

 private:
  void finishCell(int i);

  QList<GridCell> cells_;
  ModuleRunOptions options_;
  bool grid_;
  RunQueue queue_;
  std::unique_ptr<QLockFile> lock_;
  QList<CellOutcome> outcomes_;
  QList<CellResult> gridRows_;  // grid.csv's rows, in cell order
  bool gridWritten_ = false;
  int ended_ = 0;
  double latest_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace milab
