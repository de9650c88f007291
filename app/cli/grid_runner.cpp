#include "cli/grid_runner.h"

#include <QDir>
#include <QRegularExpression>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "cli/display_units_choice.h"
#include "cli/stop_signals.h"
#include "engine/grid_scheduler.h"
#include "engine/run.h"
#include "plot/grid_outputs.h"
#include "results/reading_words.h"

namespace milab {

QString parseShard(const QString& text, GridShard* out) {
  static const QRegularExpression form(QStringLiteral("^(\\d{1,6})/(\\d{1,6})$"));
  const QRegularExpressionMatch m = form.match(text);
  if (!m.hasMatch())
    return QStringLiteral("shard: must be I/N with 0 <= I < N (e.g. 0/4 for the first of four), got '%1'").arg(text);
  const int i = m.captured(1).toInt(), n = m.captured(2).toInt();
  if (n < 1) return QStringLiteral("shard: N must be at least 1, got '%1'").arg(text);
  if (i >= n)
    return QStringLiteral("shard: I must be in [0, %1] for N = %2 (shards count from 0), got '%3'")
        .arg(n - 1)
        .arg(n)
        .arg(text);
  *out = GridShard{i, n};
  return {};
}

QList<GridCell> cellsOfShard(const QList<GridCell>& cells, const GridShard& shard) {
  QList<GridCell> out;
  for (int i = shard.index; i < cells.size(); i += shard.count) out << cells[i];
  return out;
}

namespace {

// "; flags: a, b" naming the cell's diagnostics (their reasons are in its summary.json), or "".
QString flagNames(const RunResult& r) {
  QStringList names;
  for (const RunFlag& f : r.flags) names << f.name;
  return names.isEmpty() ? QString() : "; flags: " + names.join(", ");
}

}  // namespace

void printCell(int done, int total, const CellResult& c, const QString& where) {
  const RunResult& r = c.result;
  // What the task knows (a table or image views: nothing), then the run's further readings (a probe's accuracy).
  const Units units = printedUnits();
  const auto amount = [units](double nats) { return QString::number(inUnits(nats, units), 'f', 4); };
  QString truth = std::isnan(r.trueMi) ? QStringLiteral("no truth")
                                       : QStringLiteral("true %1 %2").arg(r.targetName,
                                                                         truthInWords(r.trueMi, r.trueMiStderr, amount));
  truth += readingsInWords(r.readings, false, units);
  // A failed cell has no estimate: it says why instead.
  const QString reading =
      r.status == RunStatus::Failed
          ? QStringLiteral("failed: %1").arg(r.reason)
          : QStringLiteral("%1 %2%3 %4 (%5)%6")
                    .arg(statusName(r.status))
                    .arg(amount(r.estimate))
                    // One reading without a spread (a whole held-out part) has no standard error to print as 0.
                    .arg(hasStandardError(r) ? " +- " + amount(r.stderror) : QString())
                    .arg(unitName(units))
                    .arg(truth)
                    .arg(r.reason.isEmpty() ? QString() : ": " + r.reason) +
                (r.warning.isEmpty() ? QString() : "; warning: " + r.warning) + flagNames(r);
  std::printf("[%d/%d] %s: %s%s%s\n", done, total, c.cell.name.toUtf8().constData(), reading.toUtf8().constData(),
              c.reused ? ", reused" : "", where.isEmpty() ? "" : qPrintable(" (" + where + ")"));
  std::fflush(stdout);
}

int finishGrid(const QString& outDir, const QList<CellResult>& results, QStringList errors, int unwritten,
               const QString& historyWarning, const GridShard& shard, const std::atomic<bool>& interrupted) {
  // A shard's table would hold a slice, and shards writing one grid.csv at once would race: the collect writes it.
  // The figure of an interrupted grid is still drawn (what it measured); a signal while it is drawn skips the rest.
  const int signalsBefore = stopSignalsSoFar();
  if (!shard.isSet())
    errors << writeGridOutputs(outDir, results, [signalsBefore] { return stopSignalsSoFar() > signalsBefore; });
  for (const QString& e : errors) std::fprintf(stderr, "milab-cli: %s\n", e.toLocal8Bit().constData());
  if (!historyWarning.isEmpty())  // the files are written all the same
    std::fprintf(stderr, "milab-cli: warning: %s\n", historyWarning.toLocal8Bit().constData());

  int failed = 0;
  for (const CellResult& c : results) failed += c.result.status == RunStatus::Failed;
  // A cell whose files could not be written is failed (recordCell marks it, so grid.csv says so too); the
  // table is named only if it was written.
  const QString table = QDir(outDir).filePath("grid.csv");
  const bool tableWritten =
      !shard.isSet() && std::none_of(errors.cbegin(), errors.cend(), [&](const QString& e) { return e.startsWith(table); });
  const QString what = shard.isSet() ? QStringLiteral("shard %1: ").arg(shard.label()) : QString();
  const QString end = shard.isSet() ? QStringLiteral("collect with the same command without --shard once every "
                                                     "shard has ended")
                      : tableWritten ? "table " + table
                                     : QStringLiteral("no table written");
  std::printf("%s%d cells, %d failed%s; %s\n", qPrintable(what), int(results.size()), failed,
              unwritten ? qPrintable(QStringLiteral(" (%1 not written)").arg(unwritten)) : "", qPrintable(end));
  std::fflush(stdout);
  if (interrupted.load()) return kInterrupted;
  return failed > 0 || !errors.isEmpty() ? 1 : 0;
}

int runGrid(const QList<GridCell>& cells, const QString& outDir, int jobs, const MethodRegistry& registry,
            const QString& historyPath, const GridShard& shard, const std::atomic<bool>& interrupted) {
  GridScheduler grid(cells, outDir, jobs, registry, historyPath);
  int done = 0;
  while (true) {
    if (interrupted.load() && !grid.wasCancelled()) grid.cancel();
    for (int i : grid.poll()) printCell(++done, int(grid.results().size()), grid.results()[i]);
    if (grid.isDone()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return finishGrid(outDir, grid.results(), grid.errors(), grid.unwrittenCells(), grid.historyWarning(), shard,
                    interrupted);
}

}  // namespace milab
