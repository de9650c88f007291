#pragma once
// Training steps whose readings are still on the run's device. The training loop queues each step here and drains
// the queue every so often: one copy to the host for many steps instead of a synchronisation per step, which would
// idle a GPU between steps. The divergence check happens at the drain, on the host.
// Torch header: engine translation units only.
#include <QString>
#include <functional>
#include <vector>

#include "method/estimator.h"

namespace milab {

// One training step's numbers, on the host.
struct StepNumbers {
  int step = 0;
  double estimate = 0;
  double loss = 0;
  double seconds = 0;  // when the step ended, counted from the start of training
  QList<NamedValue> terms;  // StepResult::terms, on the host
};

class PendingSteps {
 public:
  void add(int step, StepResult result, double seconds);
  int size() const { return int(pending_.size()); }

  // Copies every pending reading to the host at once and hands each step's numbers to `use` (may be empty), in step
  // order. Stops at the first step whose estimate or loss is not finite and returns why ("training diverged:
  // non-finite loss at step 12"), dropping the steps after it; empty when all were finite. Leaves nothing pending.
  QString drain(const std::function<void(const StepNumbers&)>& use);

 private:
  struct Pending {
    int step;
    StepResult result;
    double seconds;
  };
  std::vector<Pending> pending_;
};

}  // namespace milab
