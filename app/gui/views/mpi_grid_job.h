#pragma once
// A grid the window hands to mpirun: `mpirun -np N [--hostfile F] milab-cli run FILE --out DIR [--key value ...]`,
// the same command a user types (app/cli/mpi_grid.cpp does the work). The window follows the cells as rank 0 writes
// them into DIR (each cell's summary.json lands last, whole), so it needs DIR on this machine: rank 0 runs on the
// first host of the host file. Stop sends SIGTERM to mpirun, which stops every rank; rank 0 writes the cells that
// finished (and the cancelled ones) before the job ends. mpirun's output goes to DIR/mpirun.log.
#include <QDateTime>
#include <QElapsedTimer>
#include <QProcess>
#include <QVariantMap>

#include "engine/experiment.h"
#include "engine/grid_progress.h"

namespace milab {

struct MpiLaunch {
  int processes = 2;
  QString hostFile;  // "" runs every process on this machine (oversubscribed when there are more than cores)
};

// "" when the window can offer MPI: this build has MPI, mpirun is on PATH, and an MPI milab-cli sits beside the
// running program; else why not, for the dialog.
QString mpiUnavailableReason();

class MpiGridJob : public GridProgress {
 public:
  // `experimentPath` may be a bundled preset (":/..."): it is then copied to DIR/grid-experiment.json for
  // milab-cli. `overrides` are the grid dialog's edits, passed as --key value. `outDir` must exist. The ranks
  // record each cell in the window's run history, `historyPath` (--db), not in whatever their default is.
  MpiGridJob(const QList<GridCell>& cells, const QString& experimentPath, const QVariantMap& overrides,
             const QString& outDir, const QString& historyPath, const MpiLaunch& launch);
  ~MpiGridJob() override;  // a job still running is stopped (SIGTERM, then SIGKILL after 5 s)

  QList<int> poll() override;
  void cancel() override;
  bool isDone() const override { return done_; }
  bool wasCancelled() const override { return cancelled_; }
  int endedCount() const override { return ended_; }
  const QList<CellResult>& results() const override { return results_; }
  QStringList errors() const override { return errors_; }
  // milab-cli ended a grid normally (exit 0, or 1 when some cell failed): grid.csv and the figures are its own.
  bool outputsWritten() const override { return done_ && exitedCleanly_; }

 private:
  QList<int> collectEnded();  // reads the summaries that appeared since the last look
  void finalise();            // once mpirun has ended: the last cells, the exit status

  QString outDir_;
  QList<CellResult> results_;
  QList<bool> seen_;
  QList<QDateTime> summaryTimes_;  // each cell's summary.json as it was at the start (invalid when none)
  QList<int> reused_;  // finished before the job started: milab-cli reuses them, reported by the first poll()
  QProcess process_;
  QElapsedTimer sinceLook_, sinceCancel_;
  QStringList errors_;
  int ended_ = 0;
  bool cancelled_ = false, done_ = false, exitedCleanly_ = false;
};

}  // namespace milab
