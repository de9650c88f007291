#pragma once
// Runs a grid's cells `jobs` at a time through a RunQueue, each a Run on its own worker thread (one intra-op
// thread each, so jobs up to the core count scale). Each cell's summary.json and curve.csv are written under
// OUT/cells/<name>/ by its own worker as soon as it ends (never on the polling thread), and a finished cell already
// there with the same experiment is reused, not rerun: an interrupted grid resumes. The owner drives it by polling on
// its own clock: the CLI in a loop, the window from a timer. Torch-free header.
#include <QList>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <mutex>

#include "engine/experiment.h"
#include "engine/grid_progress.h"
#include "results/grid_files.h"

namespace milab {

class MethodRegistry;
class RunQueue;

// What every grid runner does when a cell ends (GridScheduler on the cell's worker, MPI's rank 0 on receipt): the
// cell's files under OUT/cells/<name>/ (results/run_files.h) and, with a `historyPath`, its record in the run
// history. A cell whose files could not all be written is marked failed in `result` (withFilesNotWritten) before
// it is recorded. Returns the file error lines; `historyWarning` gets why the history could not be written, if so.
QStringList recordCell(const QString& outDir, const GridCell& cell, RunResult* result,
                       const QVector<CurvePoint>& curve, const QString& historyPath, QString* historyWarning);
// OUT/cells/<name>: where a cell's files live.
QString cellDir(const QString& outDir, const GridCell& cell);
// True when OUT/cells/<name> holds this cell's finished files (readFinishedSummary): a rerun reuses it.
bool readFinishedCell(const QString& outDir, const GridCell& cell, RunResult* result);

class GridScheduler : public GridProgress {
 public:
  // `cells` must come from expandExperiment; `outDir` must exist; `registry` must outlive the scheduler. With a
  // `historyPath`, each cell that ends is also recorded in that run history (results/run_store.h).
  GridScheduler(const QList<GridCell>& cells, const QString& outDir, int jobs, const MethodRegistry& registry,
                const QString& historyPath = {});
  ~GridScheduler() override;  // cancels and joins the running cells
  GridScheduler(const GridScheduler&) = delete;
  GridScheduler& operator=(const GridScheduler&) = delete;

  // Collects the cells that ended (writing their files) and starts pending ones up to `jobs`. Returns the
  // indices into results() of the cells that ended since the last call, reused ones on the first call.
  QList<int> poll() override;
  void cancel() override;  // cancels the running cells and starts no more; they still end (and are written) by poll()
  bool isDone() const override;
  bool wasCancelled() const override { return cancelled_; }
  int endedCount() const override { return ended_; }
  const QList<CellResult>& results() const override { return results_; }
  QList<CellResult> endedResults() const;  // the cells with a result, in grid order
  QStringList errors() const override;     // file errors so far, one line each
  int unwrittenCells() const;              // cells whose files could not all be written
  QString historyWarning() const;  // why the run history could not be written, "" when it could (or none is kept)

 private:
  QList<CellResult> results_;
  QList<int> cellOfRun_;            // queue index -> index into results_
  QList<int> reused_;               // reported by the first poll()
  mutable std::mutex errorsMutex_;  // the runs' workers write the files and report here
  QStringList errors_;
  QString historyWarning_;
  int unwritten_ = 0;
  std::map<int, RunResult> unwrittenResults_;  // index into results_ -> the cell marked failed for its files
  std::unique_ptr<RunQueue> queue_;
  int ended_ = 0;
  bool cancelled_ = false;
};

}  // namespace milab
