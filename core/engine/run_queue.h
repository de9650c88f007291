#pragma once
// Runs, `jobs` at a time, the rest queued: the pool behind a comparison set in the window and a grid's cells.
// Each run is built when it is added (so its target and ceilings are known before it starts) and started by
// poll() when a slot frees. The owner polls on its own clock; nothing here signals. Torch-free header.
#include <QList>
#include <memory>
#include <vector>

#include "engine/run.h"

namespace milab {

class MethodRegistry;

class RunQueue {
 public:
  RunQueue(const MethodRegistry& registry, int jobs);
  ~RunQueue();  // cancels and joins every run
  RunQueue(const RunQueue&) = delete;
  RunQueue& operator=(const RunQueue&) = delete;

  // `spec` must have passed validateRunSpec. Returns the run's index; it waits for poll() to start it.
  int add(const RunSpec& spec);
  int size() const { return int(runs_.size()); }
  Run& run(int i) { return *runs_[i].run; }
  const Run& run(int i) const { return *runs_[i].run; }

  // Pending, Running, or how the run ended; Cancelled for a run stopped before it started.
  RunStatus status(int i) const;
  bool hasEnded(int i) const;

  // Joins the runs that ended and starts pending ones up to `jobs`. Returns the indices that ended since the
  // last call (a run stopped before it started included).
  QList<int> poll();
  void cancel(int i);  // a pending run never starts; a running one stops and keeps what it measured
  void cancelAll();
  bool isDone() const;  // nothing pending or running, and every end reported by poll()
  int jobs() const { return jobs_; }
  void setJobs(int jobs);

 private:
  struct Entry {
    std::unique_ptr<Run> run;
    bool started = false;
    bool skipped = false;  // cancelled before it started
    bool reported = false;
  };
  const MethodRegistry& registry_;
  int jobs_;
  std::vector<Entry> runs_;
};

}  // namespace milab
