#include "engine/grid_scheduler.h"

#include <QDir>

#include "engine/run_queue.h"
#include "method/method_registry.h"
#include "results/run_files.h"
#include "results/run_store.h"

namespace milab {

QString cellDir(const QString& outDir, const GridCell& cell) { return QDir(outDir).filePath("cells/" + cell.name); }

bool readFinishedCell(const QString& outDir, const GridCell& cell, RunResult* result) {
  return readFinishedSummary(cellDir(outDir, cell) + "/summary.json", cell.spec, result);
}

QStringList recordCell(const QString& outDir, const GridCell& cell, RunResult* result,
                       const QVector<CurvePoint>& curve, const QString& historyPath, QString* historyWarning) {
  return writeRunFiles(cellDir(outDir, cell), cell.spec, result, curve, {},
                       [&](const RunResult& recorded, const RecordPlace& place) {
                         if (!historyPath.isEmpty())
                           *historyWarning =
                               recordRun(historyPath, cell.spec, recorded, curve, "grid " + outDir, nullptr, place);
                       });
}

GridScheduler::GridScheduler(const QList<GridCell>& cells, const QString& outDir, int jobs,
                             const MethodRegistry& registry, const QString& historyPath)
    : queue_(std::make_unique<RunQueue>(registry, jobs)) {
  for (const GridCell& cell : cells) {
    CellResult c{cell, {}, false};
    c.reused = readFinishedCell(outDir, cell, &c.result);
    if (c.reused) {
      reused_ << int(results_.size());
    } else {
      const int at = int(results_.size());
      cellOfRun_ << at;
      Run& run = queue_->run(queue_->add(cell.spec));
      run.setOnFinished([this, at, cell, outDir, historyPath](const Run& r) {  // on its worker
        QString history;
        RunResult recorded = r.result();
        const QStringList errors = recordCell(outDir, cell, &recorded, r.curve(), historyPath, &history);
        std::lock_guard<std::mutex> lock(errorsMutex_);
        errors_ << errors;
        unwritten_ += !errors.isEmpty();
        if (!errors.isEmpty()) unwrittenResults_[at] = recorded;  // failed: poll() reports it so
        if (historyWarning_.isEmpty()) historyWarning_ = history;
      });
    }
    results_ << c;
  }
}

GridScheduler::~GridScheduler() = default;  // the queue cancels and joins the running cells

QList<int> GridScheduler::poll() {
  QList<int> ended = reused_;
  reused_.clear();
  for (int i : queue_->poll()) {
    if (!queue_->run(i).isFinished()) continue;  // stopped before it started: stays pending, writes nothing
    const int at = cellOfRun_[i];
    results_[at].result = queue_->run(i).result();
    {
      std::lock_guard<std::mutex> lock(errorsMutex_);
      if (const auto unwritten = unwrittenResults_.find(at); unwritten != unwrittenResults_.end())
        results_[at].result = unwritten->second;
    }
    ended << at;
  }
  ended_ += int(ended.size());
  return ended;
}

void GridScheduler::cancel() {
  cancelled_ = true;
  queue_->cancelAll();
}

bool GridScheduler::isDone() const { return queue_->isDone(); }

QStringList GridScheduler::errors() const {
  std::lock_guard<std::mutex> lock(errorsMutex_);
  return errors_;
}

int GridScheduler::unwrittenCells() const {
  std::lock_guard<std::mutex> lock(errorsMutex_);
  return unwritten_;
}

QString GridScheduler::historyWarning() const {
  std::lock_guard<std::mutex> lock(errorsMutex_);
  return historyWarning_;
}

QList<CellResult> GridScheduler::endedResults() const {
  QList<CellResult> out;
  for (const CellResult& c : results_)
    if (c.result.status != RunStatus::Pending) out << c;
  return out;
}

}  // namespace milab
