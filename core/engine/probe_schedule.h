#pragma once
// A learned representation's probe as a run observer (method/representation_probe.h): the untrained encoder's
// accuracy before training (the honest floor), a reading every probe_every steps on the curve, and at the end the
// final accuracy, the embedding map and, when the method asks for it, the supervised ceiling; a cancelled run keeps
// its last reading as its accuracy. Torch-free.
#include <functional>
#include <limits>

#include "engine/run_observer.h"
#include "engine/run_spec.h"

namespace milab {

class RepresentationProbe;

class ProbeSchedule : public RunObserver {
 public:
  // `probe` (the estimator's) outlives the observer; `putOnCurve(step, value)` puts a reading on a step's point.
  ProbeSchedule(RepresentationProbe& probe, const RunSpec& spec, std::function<void(int, double)> putOnCurve);

  void trainingStarts(RunResult* result) override;
  bool beforeStep(int step) override;
  int syncEvery() const override;
  void trainingEnded(int stepsDone, RunResult* result) override;
  void runCancelled(RunResult* result) override;

 private:
  void read(int step);

  RepresentationProbe& probe_;
  const RunSpec& spec_;
  std::function<void(int, double)> putOnCurve_;
  double last_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace milab
