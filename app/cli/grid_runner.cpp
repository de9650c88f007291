#include "cli/grid_runner.h"

#include <qcustomplot.h>

#include <QDir>
#include <QElapsedTimer>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "engine/run.h"
#include "method/method_registry.h"
#include "plot/grid_plot.h"
#include "plot/plot_export.h"
#include "results/grid_files.h"
#include "results/run_files.h"

namespace milab {

namespace {

struct Active {
  int index;
  std::unique_ptr<Run> run;
};

void printCell(int done, int total, const CellResult& c) {
  const RunResult& r = c.result;
  std::printf("[%d/%d] %s: %s %.4f +- %.4f (true %s %.4f)%s%s\n", done, total, c.cell.name.toUtf8().constData(),
              statusName(r.status).toUtf8().constData(), r.estimate, r.stderror, r.targetName.toUtf8().constData(),
              r.trueMi, c.reused ? ", reused" : "",
              r.reason.isEmpty() ? "" : QStringLiteral(": %1").arg(r.reason).toUtf8().constData());
  std::fflush(stdout);
}

}  // namespace

int runGrid(const QList<GridCell>& cells, const QString& outDir, int jobs, const MethodRegistry& registry,
            const std::atomic<bool>& interrupted) {
  const QDir out(outDir);
  QList<CellResult> results;
  for (const GridCell& cell : cells) results << CellResult{cell, {}, false};
  QStringList errors;
  int done = 0;

  QList<int> pending;
  for (int i = 0; i < results.size(); ++i) {
    const QString summary = out.filePath("cells/" + results[i].cell.name + "/summary.json");
    if (readFinishedSummary(summary, results[i].cell.spec, &results[i].result)) {
      results[i].reused = true;
      printCell(++done, results.size(), results[i]);
    } else {
      pending << i;
    }
  }

  std::vector<Active> active;  // QList needs copyable elements
  auto collect = [&](Active& a) {
    CellResult& c = results[a.index];
    c.result = a.run->result();
    const QString dir = out.filePath("cells/" + c.cell.name);
    if (!QDir().mkpath(dir)) errors << QStringLiteral("out: cannot create folder '%1'").arg(dir);
    errors << writeSummaryJson(dir + "/summary.json", c.cell.spec, c.result)
           << writeCurveCsv(dir + "/curve.csv", a.run->curve());
    printCell(++done, results.size(), c);
  };
  while (!pending.isEmpty() || !active.empty()) {
    if (interrupted.load()) {
      for (Active& a : active) a.run->cancel();
      pending.clear();
    }
    while (!pending.isEmpty() && int(active.size()) < jobs) {
      const int i = pending.takeFirst();
      Active a{i, std::make_unique<Run>(results[i].cell.spec, registry.find(results[i].cell.spec.method))};
      a.run->start();
      active.push_back(std::move(a));
    }
    for (int k = int(active.size()) - 1; k >= 0; --k) {
      if (!active[k].run->isFinished()) continue;
      active[k].run->wait();
      collect(active[k]);
      active.erase(active.begin() + k);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  errors << writeGridCsv(out.filePath("grid.csv"), results);
  QCustomPlot plot;
  const int panels = drawGridPlot(&plot, results);
  for (const char* name : {"estimate_vs_K.png", "estimate_vs_K.pdf", "estimate_vs_K.svg"})
    errors << exportPlot(&plot, out.filePath(name), std::max(900, 420 * panels + 80), 520);
  errors.removeAll(QString());
  for (const QString& e : errors) std::fprintf(stderr, "milab-cli: %s\n", e.toLocal8Bit().constData());

  int failed = 0;
  for (const CellResult& c : results) failed += c.result.status == RunStatus::Failed;
  std::printf("%d cells, %d failed; table %s\n", int(results.size()), failed,
              out.filePath("grid.csv").toUtf8().constData());
  if (interrupted.load()) return 130;
  return failed > 0 || !errors.isEmpty() ? 1 : 0;
}

}  // namespace milab
