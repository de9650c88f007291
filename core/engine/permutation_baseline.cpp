// The twin's training and reading, with its own held-out tracker for report = best.
#include "engine/permutation_baseline.h"

#include <cmath>
#include <functional>

#include "engine/held_out_evaluation.h"
#include "engine/run_spec.h"
#include "engine/training_session.h"
#include "method/method_plugin.h"

namespace milab {

BaselineOutcome permutationBaseline(const RunSpec& spec, const MethodPlugin& method, const TaskModel& task,
                                    c10::Device device, const std::atomic<bool>& cancel, int steps) {
  TrainingSession twin(
      spec, method, task, device, [&cancel] { return cancel.load(); }, true);
  const bool trains = method.info().trains;
  // The run's own held-out observer, without early stopping (the twin trains as many steps as the run did) and with
  // nowhere on a curve to put its readings.
  HeldOutEvaluation readings(
      spec.evalEvery, heldOutSelection(method.info()), false,
      [&] { return heldOutReading(twin, *twin.sampleSet(), spec.heldOutWhole, cancel); }, [](int, double) {});
  const std::function<bool(int)> everyReading =
      spec.reportBest && trains ? std::function<bool(int)>([&](int s) { return readings.beforeStep(s); })
                                : std::function<bool(int)>();
  const TrainingOutcome t = twin.train(steps, everyReading, {});
  HeldOutReading b = t.error.isEmpty() && !t.cancelled
                         ? finalReading(twin, trains, spec.heldOutWhole, spec.seed, cancel)
                         : HeldOutReading{};
  if (spec.reportBest && trains && std::isfinite(b.value)) b = readings.reported(steps, b, true);
  BaselineOutcome outcome;
  outcome.cancelled = cancel.load();
  if (!outcome.cancelled && t.error.isEmpty() && std::isfinite(b.value)) outcome.reading = b;
  return outcome;
}

}  // namespace milab
