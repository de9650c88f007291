#pragma once
// What watches a run's training: Run::execute builds a list of observers for the spec, the step loop asks each one
// before every step (any may end training there), and each adds what it measured to the result at the end. One
// file per observer, each with its own state: a new one (a second held-out metric) is a file and a line where
// Run::execute builds the list. Torch-free.
#include <memory>
#include <vector>

namespace milab {

struct RunResult;

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // Before training's first step: readings of the untrained networks.
  virtual void trainingStarts(RunResult* result) { (void)result; }
  // Before step `step` (from 1); false ends training there, as finished (early stopping).
  virtual bool beforeStep(int step) {
    (void)step;
    return true;
  }
  // A reading taken before step s + 1 belongs on step s's point, which must be published first: every syncEvery()
  // steps the loop waits for its readings to reach the host (0: the observer reads nothing between steps).
  virtual int syncEvery() const { return 0; }
  // Training ran to its end (every step, or an early stop) after `stepsDone` steps: the last readings.
  virtual void trainingEnded(int stepsDone, RunResult* result) {
    (void)stepsDone;
    (void)result;
  }
  // The run was cancelled: what the observer measured stays in the result.
  virtual void runCancelled(RunResult* result) { (void)result; }
};

// The observers of one run, asked in the order they were added (the staircase's switch before the readings of the
// step it starts).
class RunObservers {
 public:
  template <class Observer>
  Observer* add(std::unique_ptr<Observer> observer) {  // the observer, for what the run asks of it at the end
    Observer* raw = observer.get();
    list_.push_back(std::move(observer));
    return raw;
  }
  void trainingStarts(RunResult* result);
  bool beforeStep(int step);  // every observer is asked; false when any ends training
  int syncEvery() const;      // the greatest common divisor of the observers' (0: none reads)
  void trainingEnded(int stepsDone, RunResult* result);
  void runCancelled(RunResult* result);

 private:
  std::vector<std::unique_ptr<RunObserver>> list_;
};

}  // namespace milab
