#pragma once
// A table has no truth: the same method trained and read the same way on it with y's rows permuted (x and y
// independent) says what "no dependence" reads as, beside the estimate. Torch header: engine translation units only.
#include <c10/core/Device.h>

#include <atomic>
#include <optional>

#include "engine/held_out_reading.h"

namespace milab {

class MethodPlugin;
class TaskModel;
struct RunSpec;

struct BaselineOutcome {
  bool cancelled = false;                 // the run was cancelled while the twin trained or read
  std::optional<HeldOutReading> reading;  // none when the twin failed (a non-finite loss or reading)
};

// The permutation twin of a run on `task` (a dataset) trained `steps` steps on `device` and read as the estimate is:
// with report = best, the best of its own held-out readings (the maximum leans upward on no dependence too, and the
// baseline shows by how much).
BaselineOutcome permutationBaseline(const RunSpec& spec, const MethodPlugin& method, const TaskModel& task,
                                    c10::Device device, const std::atomic<bool>& cancel, int steps);

}  // namespace milab
