#pragma once
// The held-out part a run's split leaves, and the method's parameters as a run's reported reading sees them.
// Torch-free.
#include "params/param_spec.h"

namespace milab {

struct MethodInfo;
struct RunSpec;

// round(samples x test_fraction): the held-out rows of a finite set (SampleSet splits the same way).
qint64 heldOutRowsOf(const RunSpec& spec);

// held_out = whole reads the N_test held-out rows at once, so the caps are those of K = N_test (InfoNCE's log K
// becomes log N_test); else the method's own parameters.
ParamMap readingParams(const MethodInfo& method, const RunSpec& spec);

}  // namespace milab
