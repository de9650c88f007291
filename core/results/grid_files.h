#pragma once
// A grid's results as files: the combined table of every cell, and reading back a cell's summary.json so
// an interrupted grid resumes where it stopped (finished cells with the same experiment are not rerun).
#include <QList>
#include <QString>

#include "engine/experiment.h"
#include "engine/run.h"

namespace milab {

struct CellResult {
  GridCell cell;
  RunResult result;
  bool reused = false;  // read back from a previous invocation's summary.json
};

// One row per cell: cell, its coordinates, task, mi, K, seed, status, target, true value, estimate, stderr,
// the ceilings ("ceiling <name>"), the reported terms ("term <name>", sorted by name) and readings (by name, e.g.
// probe_accuracy), one column each, a table's permutation baseline and its stderr (when a cell has one),
// seconds, reason, and a method's warning (when a cell has one). Returns "" or an error line naming the file.
QString writeGridCsv(const QString& path, const QList<CellResult>& cells);

// True when `summaryPath` holds a finished run of exactly `spec`, its curve.csv complete; fills *result from it.
bool readFinishedSummary(const QString& summaryPath, const RunSpec& spec, RunResult* result);
// The same for a run of `spec` that ended in any way (finished, failed or cancelled, with its reason): what a
// window following another process's grid (mpirun) shows as ended.
bool readEndedSummary(const QString& summaryPath, const RunSpec& spec, RunResult* result);

}  // namespace milab
