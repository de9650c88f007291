#pragma once
// The finite-sample protocol's held-out readings as they arrive (one every eval_every steps, then the final one):
// the best so far, where it was read, and the early-stopping rule (two readings in a row not better than the best;
// bmi's). Better is higher for a lower bound, lower for an upper bound (CLUB), and a lower held-out loss for a method
// that selects by it (the diffusion estimators: method_plugin.h, HeldOutSelection). Torch-free.
#include <QString>
#include <limits>

#include "engine/held_out_reading.h"
#include "method/method_plugin.h"

namespace milab {

class HeldOutTracker {
 public:
  HeldOutTracker(HeldOutSelection selection, bool earlyStopping)
      : selection_(selection), earlyStopping_(earlyStopping) {}

  // Records the reading taken after `step` (one whose value, or loss where the selection is by loss, is not finite
  // is skipped); false when training should stop here.
  bool observe(int step, const HeldOutReading& reading);

  bool any() const { return readings_ > 0; }
  int readings() const { return readings_; }
  double best() const { return best_.value; }  // NaN before the first reading
  const HeldOutReading& bestReading() const { return best_; }
  bool selectsByLoss() const { return selection_ == HeldOutSelection::LowestLoss; }
  int bestStep() const { return bestStep_; }
  int lastStep() const { return lastStep_; }    // the step of the last reading, 0 before the first
  int stoppedAt() const { return stoppedAt_; }  // 0: early stopping never ended training

 private:
  bool better(const HeldOutReading& r) const;

  HeldOutSelection selection_;
  bool earlyStopping_;
  int readings_ = 0, sinceBest_ = 0, bestStep_ = 0, lastStep_ = 0, stoppedAt_ = 0;
  HeldOutReading best_{std::numeric_limits<double>::quiet_NaN(), 0};
};

// What the readings did to the run, for its reason line: where early stopping ended it, and with report = best,
// which reading the estimate is. "" when neither applies.
QString heldOutReason(const HeldOutTracker& track, bool reportBest);

}  // namespace milab
