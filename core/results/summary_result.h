#pragma once
// A run's result read back from its summary.json object (results/run_files.h writes it): what a resumed grid, a
// window following another process's grid, and the run history's rows rebuild a run from. One reader, so that a
// field summary.json gains (the permutation baseline, a warning, the probe's readings, a staircase's levels)
// comes back everywhere at once.
#include <QJsonObject>

#include "engine/run.h"

namespace milab {

// Fills *result from `summary`; false (and *result untouched) when it has no status a run ends with (finished,
// failed, cancelled). The spec is not read: the caller decides whose run it is.
bool resultFromSummary(const QJsonObject& summary, RunResult* result);

}  // namespace milab
