#include "lab_runs.h"

#include <QDir>
#include <cmath>

#include "lab_catalog.h"
#include "results/out_folder.h"
#include "results/run_files.h"
#include "results/run_store.h"

namespace milab {

QString moduleCells(const QByteArray& experimentJson, const QString& source, QList<GridCell>* cells) {
  Experiment experiment;
  if (const QString err = parseExperiment(experimentJson, source, &experiment); !err.isEmpty()) return err;
  return expandExperiment(experiment, moduleRegistry(), cells);
}

QString checkRunOptions(const ModuleRunOptions& options) {
  if (options.jobs < 1 || options.jobs > 256)
    return QStringLiteral("jobs: must be an integer in [1, 256], got %1").arg(options.jobs);
  return {};
}

ModuleRuns::ModuleRuns(QList<GridCell> cells, ModuleRunOptions options, bool grid)
    : cells_(std::move(cells)), options_(std::move(options)), grid_(grid), queue_(moduleRegistry(), options_.jobs) {
  for (const GridCell& c : cells_) queue_.add(c.spec);
  for (const GridCell& c : cells_) {
    outcomes_ << CellOutcome{c.name, {}, {}, {}};
    gridRows_ << CellResult{c, RunResult{}, false};
  }
}

ModuleRuns::~ModuleRuns() = default;  // RunQueue cancels and joins what still runs

QString ModuleRuns::claimOut() { return options_.out.isEmpty() ? QString() : claimOutFolder(options_.out, &lock_); }

void ModuleRuns::start() { queue_.poll(); }

bool ModuleRuns::poll() {
  for (int i : queue_.poll()) finishCell(i);
  if (!queue_.isDone()) return false;
  if (grid_ && !options_.out.isEmpty() && !gridWritten_) {
    gridWritten_ = true;
    if (const QString err = writeGridCsv(QDir(options_.out).filePath("grid.csv"), gridRows_); !err.isEmpty())
      outcomes_.last().warnings << err;
  }
  return true;
}

void ModuleRuns::cancelAll() { queue_.cancelAll(); }

qint64 ModuleRuns::stepsDone() const {
  qint64 done = 0;
  for (int i = 0; i < queue_.size(); ++i)
    done += queue_.hasEnded(i) ? queue_.run(i).spec().steps : queue_.run(i).stepsDone();
  return done;
}

qint64 ModuleRuns::stepsTotal() const {
  qint64 total = 0;
  for (const GridCell& c : cells_) total += c.spec.steps;
  return total;
}

double ModuleRuns::latestEstimate() {
  for (int i = 0; i < queue_.size(); ++i) {
    const QVector<CurvePoint> points = queue_.run(i).takeNewPoints();
    if (!points.isEmpty()) latest_ = points.last().estimate;
  }
  return latest_;
}

void ModuleRuns::finishCell(int i) {
  ++ended_;
  const Run& run = queue_.run(i);
  const RunSpec& spec = run.spec();
  RunResult result = run.result();
  const QVector<CurvePoint> curve = run.curve();
  CellOutcome& outcome = outcomes_[i];
  const QString history = options_.history.isEmpty() ? defaultHistoryPath() : options_.history;
  QString historyWarning;
  const auto record = [&](const RunResult& recorded, const RecordPlace& place = {}) {
    if (options_.record)
      historyWarning = recordRun(history, spec, recorded, curve, QStringLiteral("python"), nullptr, place);
  };
  if (!options_.out.isEmpty()) {
    const QString dir = grid_ ? QDir(options_.out).filePath(cells_[i].name) : options_.out;
    QDir().mkpath(dir);
    outcome.warnings << writeRunFiles(dir, spec, &result, curve, {}, record);
    gridRows_[i].result = result;
  } else {
    record(result);
  }
  if (!historyWarning.isEmpty()) outcome.warnings << historyWarning;
  outcome.summary = summaryJson(spec, result);
  outcome.curve = curve;
}

}  // namespace milab
