#pragma once
// The diffusion estimators read MI as an integral over a bounded range of noise levels, so their reading has a cap:
// each standardised direction of the x side adds at most capPerDirection (LogSnrRange's, VpSchedule's) however
// strongly y tells x. Declared as a ceiling where it can bind, so that a reading there says so
// (engine/final_reading_check's atACeiling) instead of passing for the truth.
#include "method/method_plugin.h"

namespace milab {

class TaskModel;

// log(1 + e^g) in double, exact for large g.
double softplusOf(double g);

// The ceiling "log-SNR range cap" = perDirection x the task's x-side columns (x, and x' with a subview), unless it
// is above `highestPlausible` (the run's reading limit): a cap no acceptable reading can reach is left out, as it
// would only stretch a plot's axis.
QList<Ceiling> readingCapOn(double perDirection, const TaskModel& task, double highestPlausible);

}  // namespace milab
