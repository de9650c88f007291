#pragma once
// The settings of the covariate Gaussians (gaussian2, gaussian3): their ParamSpecs, their cross-field checks
// (mi at most 5 nats per dimension, every staircase level too), and the typed fields they are read into in one
// place (GaussianTaskOptions::from).
#include <optional>

#include "params/param_spec.h"
#include "tasks/task.h"

namespace milab {

ParamSpecs gaussianSizeSpecs();       // dim, mi
ParamSpecs gaussianStaircaseSpecs();  // mi_schedule, steps_per_level, level_tail (engine/staircase.h reads them)

// Range-checks `params` against the task's specs, fills defaults, sets mi to a staircase's last level (what the
// final evaluation reads) and checks mi and every level against 5 nats per dimension. "" or the line naming the field.
QString validateGaussianParams(const TaskInfo& task, ParamMap* params);

struct GaussianTaskOptions {
  int dim = 20;
  double mi = 10;
  bool cubic = false;           // gaussian2: y -> y^3
  std::optional<double> alpha;  // gaussian3: I(x';y) / I(x,x';y); unset draws it
  static constexpr double kPairMi = 2;         // gaussian2's default mi (gaussian3 takes `mi`'s)
  static GaussianTaskOptions from(const ParamMap& params);
};

}  // namespace milab
