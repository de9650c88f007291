#pragma once
// The comparison set without its widgets: the runs the user started (a RunQueue, `jobs` training at once), each
// learned run's oracle (the same bound with the task's analytic critic, started beside it and stopped with it),
// the history every ended run is recorded in, and what the set is as data: labels, seed groups, the figure's
// runs, the experiment file and the results CSV. gui/views/comparison_view.h draws it; tests drive it without
// widgets.
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>
#include <memory>
#include <optional>
#include <vector>

#include "engine/run.h"
#include "plot/experiment_figure.h"

namespace milab {

class MethodRegistry;
class RunQueue;

class ComparisonSet {
 public:
  ComparisonSet(const MethodRegistry& registry, int jobs);
  ~ComparisonSet();  // stops every run and oracle; the queue joins them (each within a training step)
  ComparisonSet(const ComparisonSet&) = delete;
  ComparisonSet& operator=(const ComparisonSet&) = delete;

  // Adds a validated run, which starts when a slot frees; returns its index. With `withOracle`, a run with a
  // learned critic also gets its oracle once it runs.
  int add(const RunSpec& spec, bool withOracle);

  // What a poll found for one run, each reported once: its new training points, its new held-out readings, its
  // oracle's result once the oracle finished, and its own result once it ended.
  struct Progress {
    QVector<CurvePoint> points, heldOut;
    std::optional<RunResult> oracle;
    std::optional<RunResult> ended;
  };
  struct Poll {
    QList<Progress> runs;  // one per run, by index
    bool changed = false;  // a run ended or read held-out samples: the table and figure are stale
    bool done = false;     // every run ended and every oracle that started has been reported
  };
  // Starts queued runs and oracles, and drains every live run.
  Poll poll();

  void stop(int index);  // the run and its oracle
  void stopAll();
  // Empties the set, with `jobs` slots from now on; refused (false) while a run trains.
  bool reset(int jobs);
  void setJobs(int jobs);
  int jobs() const;

  int size() const { return int(entries_.size()); }
  bool running() const;
  const Run& run(int index) const;
  const Run* oracle(int index) const;
  RunStatus status(int index) const;
  bool hasEnded(int index) const;
  const RunSpec& spec(int index) const;
  QList<RunSpec> specs() const;
  // The last training step drained and its time, for the speed of a run still training.
  int lastStep(int index) const;
  double lastSeconds(int index) const;
  // A set is on one task: does `spec` have the set's task and task parameters?
  bool onTaskOf(const RunSpec& spec) const;
  static QString taskKey(const RunSpec& spec);  // the task and its parameters, as one comparable text

  bool trains(const RunSpec& spec) const;  // its method trains (KSG does not: no steps, no training settings)
  // The keys that label each method's runs (engine/run_set.h labelKeysByMethod): those that differ among its own
  // runs, and the task's and the run's settings that differ among all; not each method's own defaults (issue 79).
  using LabelKeys = QMap<QString, QStringList>;
  LabelKeys labelKeys() const;
  // "infonce K=128": the method and its values of its label keys that this run reads.
  QString labelOf(const RunSpec& spec, const LabelKeys& keys) const;
  // Every run's label; identical runs (Run pressed twice) get their row number, " #3".
  QStringList labels() const;
  // Runs that differ only by seed, by index, under their group's label; empty unless the seed differs.
  QList<QPair<QString, QList<int>>> seedGroups() const;
  // The set as the figures take it (a staircase's runs with their curves).
  QList<FigureRun> figureRuns() const;

  QString saveExperiment(const QString& path) const;  // the experiment file milab-cli runs: "" or an error line
  QString exportCsv(const QString& path) const;       // the results table as CSV: "" or an error line

  // Each run that ends is recorded there from its own worker thread ("" keeps no history).
  void setHistoryPath(const QString& path);
  QString historyWarning() const;  // why the history could not be written, "" when it could

 private:
  struct Entry;
  struct HistorySink;
  void startOracle(Entry& e);
  void recordOracle(Entry& e, const Run& run);

  const MethodRegistry& registry_;
  std::unique_ptr<RunQueue> queue_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::shared_ptr<HistorySink> history_;  // shared with the runs' callbacks, which may outlive a reset()
};

}  // namespace milab
