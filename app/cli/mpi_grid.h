#pragma once
// Grids over MPI (Debian's Open MPI): `mpirun -np N milab-cli run GRID.json --out DIR`, on one host or many (a host
// file). Rank 0 reads and validates the grid, hands cells out one at a time to the ranks that ask (dynamic, so a
// long cell never holds up short ones), runs cells itself between messages, and receives and writes every result:
// only rank 0 needs the grid file and DIR, no shared file system. Each cell seeds itself, so the numbers are those
// of --jobs 1; finished cells are reused on a rerun, as without MPI. Each rank runs one cell at a time.
#include <QList>
#include <QString>
#include <atomic>

#include "cli/grid_runner.h"
#include "engine/experiment.h"

namespace milab {

class MethodRegistry;
class MpiSession;

// What mpirun told this process through its environment (Open MPI, PMIx, MPICH's PMI): its rank and the world's
// size; 0 and 1 when it was not started by mpirun.
int mpiWorldSizeFromEnvironment();
int mpiRankFromEnvironment();
// Whether this milab-cli was built with MPI (libopenmpi-dev found at configure time).
bool builtWithMpi();

#ifdef MILAB_HAVE_MPI
// MPI_Init .. MPI_Finalize. On rank 0, `releaseWorkers()` before the end tells every worker that asks for a cell
// to stop (bad input, a single run, or the grid's end); the destructor does it when nothing else did.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  int rank() const { return rank_; }
  int size() const { return size_; }
  void releaseWorkers();
  // The grid's own loop has stopped every worker: nothing is left for releaseWorkers() to answer.
  void markWorkersReleased() { released_ = true; }
  // Ends the whole job now (a rank died or hangs, so MPI_Finalize would wait for it forever): MPI_Abort.
  [[noreturn]] void abort(int exitCode);

 private:
  int rank_ = 0, size_ = 1;
  bool released_ = false;
};

// A worker rank: asks rank 0 for cells, runs each, sends back its result, until told to stop. Exit code 0, or
// 130 when stopped by a signal.
int runMpiWorker(const MethodRegistry& registry, const std::atomic<bool>& interrupted);
// Rank 0: the grid over every rank. Returns the exit code, as runGrid.
int runGridOverMpi(MpiSession& session, const QList<GridCell>& cells, const QString& outDir,
                   const MethodRegistry& registry, const QString& historyPath, const GridShard& shard,
                   const std::atomic<bool>& interrupted);
#endif

}  // namespace milab
