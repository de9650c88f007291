#pragma once
// The finite-sample protocol's held-out readings as they arrive (one every eval_every steps, then the final one):
// the best so far, where it was read, and the early-stopping rule (two readings in a row not better than the best;
// bmi's). Better is higher for a lower bound, lower for an upper bound (CLUB). Torch-free.
#include <QString>
#include <limits>

namespace milab {

class HeldOutTracker {
 public:
  HeldOutTracker(bool upperBound, bool earlyStopping) : upperBound_(upperBound), earlyStopping_(earlyStopping) {}

  // Records the reading taken after `step`, with its standard error (a non-finite one is skipped); false when
  // training should stop here.
  bool observe(int step, double value, double stderror = 0);

  bool any() const { return readings_ > 0; }
  int readings() const { return readings_; }
  double best() const { return best_; }  // NaN before the first reading
  double bestStderror() const { return bestStderror_; }
  int bestStep() const { return bestStep_; }
  int lastStep() const { return lastStep_; }    // the step of the last reading, 0 before the first
  int stoppedAt() const { return stoppedAt_; }  // 0: early stopping never ended training

 private:
  bool upperBound_, earlyStopping_;
  int readings_ = 0, sinceBest_ = 0, bestStep_ = 0, lastStep_ = 0, stoppedAt_ = 0;
  double best_ = std::numeric_limits<double>::quiet_NaN(), bestStderror_ = 0;
};

// What the readings did to the run, for its reason line: where early stopping ended it, and with report = best,
// which reading the estimate is. "" when neither applies.
QString heldOutReason(const HeldOutTracker& track, bool reportBest);

}  // namespace milab
