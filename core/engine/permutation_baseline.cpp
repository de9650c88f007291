// The twin's training and reading, with its own held-out tracker for report = best.
#include "engine/permutation_baseline.h"

#include <cmath>
#include <functional>

#include "engine/held_out_tracker.h"
#include "engine/run_spec.h"
#include "engine/training_session.h"
#include "method/method_plugin.h"

namespace milab {

BaselineOutcome permutationBaseline(const RunSpec& spec, const MethodPlugin& method, const TaskModel& task,
                                    c10::Device device, const std::atomic<bool>& cancel, int steps) {
  TrainingSession twin(
      spec, method, task, device, [&cancel] { return cancel.load(); }, true);
  const bool trains = method.info().trains;
  HeldOutTracker track(method.info().upperBound, false);
  const auto readTwin = [&](int step) {
    if (step > 1 && (step - 1) % spec.evalEvery == 0) {
      const HeldOutReading h = heldOutReading(twin, *twin.sampleSet(), spec.heldOutWhole, cancel);
      track.observe(step - 1, h.value, h.stderror);
    }
    return true;
  };
  const std::function<bool(int)> everyReading =
      spec.reportBest && trains ? std::function<bool(int)>(readTwin) : std::function<bool(int)>();
  const TrainingOutcome t = twin.train(steps, everyReading, {});
  HeldOutReading b =
      t.error.isEmpty() && !t.cancelled ? finalReading(twin, trains, spec.heldOutWhole, cancel) : HeldOutReading{};
  if (spec.reportBest && trains && std::isfinite(b.value)) b = reportedReading(&track, steps, b, true);
  BaselineOutcome outcome;
  outcome.cancelled = cancel.load();
  if (!outcome.cancelled && t.error.isEmpty() && std::isfinite(b.value)) outcome.reading = b;
  return outcome;
}

}  // namespace milab
