#pragma once
// The last word on a run's final reading before it is reported: a reading outside what its method can read on
// its task (method/reading_limits.h; finite garbage such as -6377 nats from InfoNCE at lr 1) fails the run with the
// number and why, as does a staircase level whose last training readings leave that level's limits; a lower
// bound below 0 on held-out samples is said as a warning (the critic overfits), down to a floor below which it
// fails. Torch-free.
#include <QString>
#include <QVector>
#include <memory>
#include <vector>

#include "engine/run.h"

namespace milab {

class MethodPlugin;
class TaskModel;

// "" when the reading stands, else the reason the run fails. `finalTask` is the law the estimator ended on (a
// staircase's last level), `levelModels` a staircase's levels (empty without one); `heldOut`: the reading is on a
// finite set's held-out part. May add the overfitting warning to `result->warning`, and the past_limit flag to
// `result->flags` for a reading past its limit by less than its noise (engine/run_diagnostics.h).
QString implausibleFinalReading(const MethodPlugin& method, const RunSpec& spec, const TaskModel& finalTask,
                                bool heldOut, const QVector<CurvePoint>& points, const MiSchedule& schedule,
                                const std::vector<std::unique_ptr<TaskModel>>& levelModels, RunResult* res);

}  // namespace milab
