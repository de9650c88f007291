#include "engine/grid_scheduler.h"

#include <QDir>

#include "engine/run.h"
#include "method/method_registry.h"
#include "results/run_files.h"

namespace milab {

struct GridScheduler::Active {
  int index;
  std::unique_ptr<Run> run;
};

GridScheduler::GridScheduler(const QList<GridCell>& cells, const QString& outDir, int jobs,
                             const MethodRegistry& registry)
    : outDir_(outDir), jobs_(std::max(1, jobs)), registry_(registry) {
  const QDir out(outDir_);
  for (const GridCell& cell : cells) {
    CellResult c{cell, {}, false};
    c.reused = readFinishedSummary(out.filePath("cells/" + cell.name + "/summary.json"), cell.spec, &c.result);
    (c.reused ? reused_ : pending_) << int(results_.size());
    results_ << c;
  }
}

GridScheduler::~GridScheduler() = default;  // each Run cancels and joins in its own destructor

QList<int> GridScheduler::poll() {
  QList<int> ended = reused_;
  reused_.clear();
  const QDir out(outDir_);
  for (auto it = active_.begin(); it != active_.end();) {
    if (!(*it)->run->isFinished()) {
      ++it;
      continue;
    }
    Run& run = *(*it)->run;
    run.wait();
    CellResult& c = results_[(*it)->index];
    c.result = run.result();
    const QString dir = out.filePath("cells/" + c.cell.name);
    if (!QDir().mkpath(dir)) errors_ << QStringLiteral("out: cannot create folder '%1'").arg(dir);
    errors_ << writeSummaryJson(dir + "/summary.json", c.cell.spec, c.result)
            << writeCurveCsv(dir + "/curve.csv", run.curve());
    errors_.removeAll(QString());
    ended << (*it)->index;
    it = active_.erase(it);
  }
  while (!cancelled_ && !pending_.isEmpty() && int(active_.size()) < jobs_) {
    const int i = pending_.takeFirst();
    const RunSpec& spec = results_[i].cell.spec;
    auto a = std::make_unique<Active>(Active{i, std::make_unique<Run>(spec, registry_.find(spec.method))});
    a->run->start();
    active_.push_back(std::move(a));
  }
  ended_ += int(ended.size());
  return ended;
}

void GridScheduler::cancel() {
  cancelled_ = true;
  pending_.clear();
  for (const auto& a : active_) a->run->cancel();
}

QList<CellResult> GridScheduler::endedResults() const {
  QList<CellResult> out;
  for (const CellResult& c : results_)
    if (c.result.status != RunStatus::Pending) out << c;
  return out;
}

}  // namespace milab
