#include "cli/grid_runner.h"

#include <QDir>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "engine/grid_scheduler.h"
#include "engine/run.h"
#include "plot/grid_outputs.h"

namespace milab {

namespace {

void printCell(int done, int total, const CellResult& c) {
  const RunResult& r = c.result;
  // A failed cell has no estimate: it says why instead.
  const QString reading = r.status == RunStatus::Failed
                              ? QStringLiteral("failed: %1").arg(r.reason)
                              : QStringLiteral("%1 %2 +- %3 (true %4 %5)%6")
                                        .arg(statusName(r.status))
                                        .arg(r.estimate, 0, 'f', 4)
                                        .arg(r.stderror, 0, 'f', 4)
                                        .arg(r.targetName)
                                        .arg(r.trueMi, 0, 'f', 4)
                                        .arg(r.reason.isEmpty() ? QString() : ": " + r.reason) +
                                    (r.warning.isEmpty() ? QString() : "; warning: " + r.warning);
  std::printf("[%d/%d] %s: %s%s\n", done, total, c.cell.name.toUtf8().constData(), reading.toUtf8().constData(),
              c.reused ? ", reused" : "");
  std::fflush(stdout);
}

}  // namespace

int runGrid(const QList<GridCell>& cells, const QString& outDir, int jobs, const MethodRegistry& registry,
            const QString& historyPath, const std::atomic<bool>& interrupted) {
  GridScheduler grid(cells, outDir, jobs, registry, historyPath);
  int done = 0;
  while (true) {
    if (interrupted.load() && !grid.wasCancelled()) grid.cancel();
    for (int i : grid.poll()) printCell(++done, int(grid.results().size()), grid.results()[i]);
    if (grid.isDone()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  const QStringList errors = grid.errors() + writeGridOutputs(outDir, grid.results());
  for (const QString& e : errors) std::fprintf(stderr, "milab-cli: %s\n", e.toLocal8Bit().constData());
  if (!grid.historyWarning().isEmpty())  // the files are written all the same
    std::fprintf(stderr, "milab-cli: warning: %s\n", grid.historyWarning().toLocal8Bit().constData());

  int failed = 0;
  for (const CellResult& c : grid.results()) failed += c.result.status == RunStatus::Failed;
  // A cell whose files could not be written is lost: it counts as failed, and the table is named only if
  // it was written.
  const int unwritten = int(grid.unwrittenCells());
  const QString table = QDir(outDir).filePath("grid.csv");
  const bool tableWritten = std::none_of(errors.cbegin(), errors.cend(), [&](const QString& e) { return e.startsWith(table); });
  std::printf("%d cells, %d failed%s; %s\n", int(grid.results().size()), failed + unwritten,
              unwritten ? qPrintable(QStringLiteral(" (%1 not written)").arg(unwritten)) : "",
              tableWritten ? qPrintable("table " + table) : "no table written");
  if (interrupted.load()) return 130;
  return failed + unwritten > 0 || !errors.isEmpty() ? 1 : 0;
}

}  // namespace milab
