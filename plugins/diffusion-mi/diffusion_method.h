#pragma once
// What the two diffusion plugins (mmg_method, minde_method) share beside their estimator: the MethodInfo of a
// diffusion reading, the refusal of an oracle on a task without a Gaussian x side, and a reading's memory.
#include "method/memory_need.h"
#include "method/method_plugin.h"

namespace milab {

// A diffusion method's MethodInfo: the family, neither bound, selected by its held-out loss, the lab's recipe's
// `tails`, heavy tails read, the test of independence on both sides.
MethodInfo diffusionMethodInfo(const QString& id, const QString& displayName, const QString& summary,
                               const ParamSpecs& params);

// "" unless `oracle` is asked on a task with no Gaussian x side; then the line naming `critic`, with what the
// method's oracle integrates (e.g. "exact Gaussian MMSEs").
QString diffusionOracleRefusal(bool oracle, const QString& method, const QString& integrates, const TaskInfo& task);

// Estimated from the tensor sizes, not measured: a reading holds batch x draws rows of the network's activations
// (with y and without), about 3 floats per hidden unit per layer per pass, through `network` (its name in the
// refusal).
MemoryNeed diffusionMemoryNeed(int64_t batch, int64_t draws, double width, int64_t layers, const QString& network);

}  // namespace milab
