#pragma once
// A grid as its follower sees it, whoever runs the cells: GridScheduler's worker threads in this process, or
// mpirun's ranks writing into the results folder (the window's MPI option). The owner polls on its own clock.
#include <QList>
#include <QStringList>

#include "results/grid_files.h"

namespace milab {

class GridProgress {
 public:
  virtual ~GridProgress() = default;
  // The indices into results() of the cells that ended since the last call (cells reused from an earlier run
  // come first).
  virtual QList<int> poll() = 0;
  virtual void cancel() = 0;  // the cells that ended stay written; running ones end as cancelled
  virtual bool isDone() const = 0;
  virtual bool wasCancelled() const = 0;
  virtual int endedCount() const = 0;
  virtual const QList<CellResult>& results() const = 0;  // every cell, in grid order
  virtual QStringList errors() const = 0;                // one line each
  // Whether whoever ran the cells also wrote grid.csv and the figures (milab-cli under mpirun), so the follower
  // need not.
  virtual bool outputsWritten() const { return false; }
};

}  // namespace milab
