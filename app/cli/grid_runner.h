#pragma once
// Runs a grid from the command line through GridScheduler (cells `jobs` at a time, each written as it ends,
// finished ones reused), printing a line per cell; at the end OUT/grid.csv and the figure its shape calls for.
// A shard (--shard I/N) runs its cells only and writes no table: the run without --shard collects them.
#include <QList>
#include <QString>
#include <QStringList>
#include <atomic>

#include "engine/experiment.h"
#include "results/grid_files.h"

namespace milab {

class MethodRegistry;

// --shard I/N: the cells whose index is I modulo N (a job array's task I of N on a shared folder).
struct GridShard {
  int index = 0, count = 1;
  bool isSet() const { return count > 1 || index > 0; }
  QString label() const { return QStringLiteral("%1/%2").arg(index).arg(count); }
};
// "" or the error line: "shard: must be I/N ...".
QString parseShard(const QString& text, GridShard* out);
QList<GridCell> cellsOfShard(const QList<GridCell>& cells, const GridShard& shard);

// Returns the CLI's exit code: 0, 1 (a cell failed; everything else written), 130 (interrupted).
// `historyPath`: the run history each cell is recorded in ("" for none).
int runGrid(const QList<GridCell>& cells, const QString& outDir, int jobs, const MethodRegistry& registry,
            const QString& historyPath, const GridShard& shard, const std::atomic<bool>& interrupted);

// The line a cell prints when it ends: "[done/total] name: finished 1.2345 +- ... (true ...)[, reused]" + `where`.
void printCell(int done, int total, const CellResult& cell, const QString& where = {});
// The end of every grid runner: grid.csv and the figures (not for a shard), the error lines, the summary line.
// `fileErrors` and `unwritten` come from the cells' writes. A signal while the figures are drawn skips the rest
// of them (grid.csv is written first). Returns the exit code, as runGrid: 130 when interrupted at any point.
int finishGrid(const QString& outDir, const QList<CellResult>& results, QStringList fileErrors, int unwritten,
               const QString& historyWarning, const GridShard& shard, const std::atomic<bool>& interrupted);

}  // namespace milab
