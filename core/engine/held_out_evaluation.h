#pragma once
// The finite-sample protocol's held-out readings as a run observer: every eval_every steps the critic those steps left
// is read on the held-out part and the reading goes on the curve beside the training one; with early stopping,
// training ends after two readings in a row without a new best (engine/held_out_tracker.h, bmi's rule). At the end
// the run reports the final reading or, with report = best, the best of them all. Torch-free.
#include <functional>

#include "engine/held_out_reading.h"
#include "engine/held_out_tracker.h"
#include "engine/run_observer.h"

namespace milab {

class HeldOutEvaluation : public RunObserver {
 public:
  // `read()` reads the critic as it is now on the held-out part; `putOnCurve(step, value)` puts a reading on a
  // step's point. selection: which reading is better (method_plugin.h).
  HeldOutEvaluation(int evalEvery, HeldOutSelection selection, bool earlyStopping, std::function<HeldOutReading()> read,
                    std::function<void(int, double)> putOnCurve);

  bool beforeStep(int step) override;
  int syncEvery() const override { return evalEvery_; }

  // The estimate of a run whose training ended after `stepsDone` steps, from its final reading `final` (of the
  // trained critic on the held-out part; `trains` false: of an estimator that trains nothing, on every row): with
  // report = best the best of all the readings, else `final`; the estimate, its error and the reason line go into
  // `result`, the terms into `terms`.
  void report(int stepsDone, bool trains, bool reportBest, const HeldOutReading& final, RunResult* result,
              QList<NamedValue>* terms);
  // The reading reported for a trained critic read `final` after `stepsDone` steps: with report = best the best of
  // all the readings (engine/held_out_reading.h, reportedReading), else `final`.
  HeldOutReading reported(int stepsDone, const HeldOutReading& final, bool reportBest) {
    return reportedReading(&tracker_, stepsDone, final, reportBest);
  }

  const HeldOutTracker& tracker() const { return tracker_; }

 private:
  int evalEvery_;
  HeldOutTracker tracker_;
  std::function<HeldOutReading()> read_;
  std::function<void(int, double)> putOnCurve_;
};

}  // namespace milab
