#pragma once
// One run on its own worker thread, with its own model, optimiser and generator. Torch-free header: the GUI
// and the CLI drive runs through it. Progress is a buffer the caller drains on its own clock (no signal per
// step); cancel() is polled once per step.
#include <QList>
#include <QString>
#include <QVector>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/curve_recorder.h"
#include "engine/run_spec.h"
#include "engine/staircase.h"
#include "method/embedding_map.h"
#include "method/method_plugin.h"

namespace c10 {
struct Device;
}

namespace milab {

class HeldOutEvaluation;
struct HeldOutReading;
struct StepNumbers;
class RunObservers;
class TaskModel;
class TrainingSession;

enum class RunStatus { Pending, Running, Finished, Cancelled, Failed };
QString statusName(RunStatus status);
// How a long computation that is not a Run ended (the prior-order sweep, hashing): Failed when it has an error,
// else Cancelled or Finished.
RunStatus outcomeOf(const QString& error, bool cancelled);
// A diagnostic of a finished run: a stable name (e.g. "still_rising") and a one-line reason with its numbers.
struct RunFlag {
  QString name, reason;
  bool operator==(const RunFlag& o) const { return name == o.name && reason == o.reason; }
};

struct RunResult;
// Whether a result carries an estimate worth a number: a finished run, or one stopped after training steps (the
// mean of its last points); a failed run, or one stopped before its first step, has none (null, an empty cell).
bool hasEstimate(const RunResult& result);
// Whether the estimate comes with a standard error: a mean over several readings, or KSG's subsampled spread. One
// reading without one (a whole held-out part, KSG on under 100 rows: its stderror is 0) is shown without
// "+- 0.000", which reads as certainty.
bool hasStandardError(const RunResult& result);
// The line a failure reports for an exception: "error: " and the first line of what().
QString errorLine(const std::exception& e);

struct RunResult {
  RunStatus status = RunStatus::Pending;
  QString reason;       // why a run failed or stopped early
  double estimate = 0;  // Finished: mean over eval batches; Cancelled: mean of the last training points
  double stderror = 0;  // standard error of that mean
  bool fromEvaluation = false;
  QList<NamedValue> terms;   // parts of the bound (mean over eval batches)
  QList<NamedValue> truths;  // exact MI values of the task
  double trueMi = 0;         // exact value of what the method estimates (MethodInfo::target)
  double trueMiStderr = 0;   // its Monte Carlo standard error where the task's truth is one (bmi's mixtures), else 0
  QString targetName;        // e.g. "I(x,x';y)", "I(x;y|x')", "log Z"
  QList<Ceiling> ceilings;
  bool upperBound = false;  // the method reads from above (CLUB): plots say so beside its name
  QString warning;  // the method's own doubt about a finished reading (MethodPlugin::warning), or ""
  // What the run's own numbers say about how far to trust its reading, each named (engine/run_diagnostics.h).
  QList<RunFlag> flags;
  double seconds = 0;
  int stepsDone = 0;
  QString device;
  // A dataset's permutation baseline: the same method, trained and read the same way on the table with y's rows
  // permuted (x and y independent): its honest zero, beside an estimate with no truth. NaN elsewhere.
  double baseline = std::numeric_limits<double>::quiet_NaN();
  double baselineStderr = std::numeric_limits<double>::quiet_NaN();
  // An MI staircase (task key mi_schedule): each level's target, and once over its bias, variance and MSE.
  QList<LevelResult> levels;
  int stepsPerLevel = 0;
  // Named results beside the estimate, each a top-level field of summary.json: a learned representation's
  // probe_accuracy, probe_accuracy_untrained and probe_accuracy_supervised (fractions in [0, 1]). Empty for an
  // estimator of MI alone.
  QList<NamedValue> readings;
  // A finished learned representation's picture (PCA of test embeddings, nearest neighbours): embedding.csv and
  // neighbours.csv, and the window's Embedding tab. Not carried through MPI (a grid's cells write their own files).
  EmbeddingMap embedding;
};

class Run {
 public:
  // `spec` must have passed validateRunSpec; `method` must outlive the run. Builds the task (cheap, exact)
  // so the true MI and the ceilings are known before training starts.
  Run(RunSpec spec, const MethodPlugin* method);
  ~Run();  // cancels and joins
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  const RunSpec& spec() const { return spec_; }
  // Called on the worker thread once the result is final and before isFinished() turns true, e.g. to write the
  // run's files off the thread that polls it. Set it before start().
  void setOnFinished(std::function<void(const Run&)> callback) { onFinished_ = std::move(callback); }
  // Starts the worker; false (and nothing happens) when the run was started before.
  bool start();
  void cancel();
  bool isFinished() const { return finished_.load(); }
  // Blocks until the run finished (its estimator already torn down) or the timeout passed; true when finished.
  bool wait(int timeoutMs = -1);

  // Points recorded since the previous call (the caller's incremental view).
  QVector<CurvePoint> takeNewPoints();
  // Points that got a late reading since the previous call: a held-out one (CurvePoint::heldOut, finite-sample
  // protocol) or a probe (CurvePoint::probe). Separate from takeNewPoints: a reading is taken after its step's point
  // was published.
  QVector<CurvePoint> takeNewHeldOut();
  QVector<CurvePoint> curve() const;
  int stepsDone() const { return stepsDone_.load(); }
  // Evaluation batches read so far; from the start of the final evaluation on, at least 1 (the batch under way); on
  // a finite set 2 once its estimate is read and the test of independence begins, 3 once the size extrapolation
  // begins (extrapolate). KSG has no training steps: this is the only sign its work has begun.
  int evaluationsBegun() const { return evaluationsBegun_.load(); }
  // Known before training: true MI and ceilings. Final fields once isFinished().
  RunResult result() const;

 private:
  void execute();
  // The device the run trains on, into res->device and result_; "" or why none can be had.
  QString chooseDevice(RunResult* res);
  // A training step's numbers on the curve (`trainingStart`: seconds from the run's start to its first step).
  void recordStep(const StepNumbers& n, double trainingStart);
  // The result made final: a staircase's level statistics from the curve, result_, onFinished_, finished_.
  void publish(RunResult res);
  // How a stage after training ended the run early: failed, or cancelled (estimateKept: with the estimate read
  // before the cancel, else the mean of the last training points).
  struct RunEnd {
    RunStatus status;
    QString reason;
    bool estimateKept = false;
  };
  // The final estimate once training ended: the finite set's held-out reading (readFiniteSet) or the fresh
  // batches'; nullopt when it was read, and its terms in `res` whenever it was.
  std::optional<RunEnd> readEstimate(std::unique_ptr<TrainingSession>& session, HeldOutEvaluation* heldOut,
                                     const c10::Device& device, RunResult* res);
  // A finite set's reading with its interval and its test of independence, then what trains beside it.
  std::optional<RunEnd> readFiniteSet(std::unique_ptr<TrainingSession>& session, HeldOutEvaluation& heldOut,
                                      const c10::Device& device, RunResult* res, QList<NamedValue>* terms);
  // What trains again once the estimate stands, each tearing `session` down first: a table's permutation baseline
  // and, with extrapolate, the size extrapolation (`final`: the reading its sizes start from). A cancel keeps the
  // estimate.
  std::optional<RunEnd> readBesideTheEstimate(std::unique_ptr<TrainingSession>& session, const HeldOutReading& final,
                                              const c10::Device& device, RunResult* res);
  // The observers of this run's training (engine/run_observer.h) for its spec; the held-out one, when the run reads
  // a finite set, for the final reading.
  HeldOutEvaluation* addObservers(TrainingSession& session, RunObservers* observers);

  RunSpec spec_;
  const MethodPlugin* method_;
  std::unique_ptr<TaskModel> model_;
  MiSchedule schedule_;
  std::vector<std::unique_ptr<TaskModel>> levelModels_;  // one per level of the staircase (empty without one)
  std::function<void(const Run&)> onFinished_;
  std::thread thread_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> finished_{false};
  std::condition_variable finishedChanged_;  // notified once, when finished_ turns true (under mutex_)
  std::atomic<int> stepsDone_{0};
  std::atomic<int> evaluationsBegun_{0};
  mutable std::mutex mutex_;  // guards result_ and the moment finished_ turns true
  CurveRecorder curve_;
  RunResult result_;
};

// Runs to completion on the calling thread's behalf (starts the worker and waits): the CLI and tests.
RunResult runToCompletion(Run& run);

}  // namespace milab
