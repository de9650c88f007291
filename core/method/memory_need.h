#pragma once
// What a run's largest tensors will take, estimated from its settings before anything is allocated: a setting the
// machine cannot hold is refused at validation (naming its key) instead of growing for a minute and failing on an
// allocation. The estimates are fits of the peak resident memory measured with /usr/bin/time on one step and its
// evaluation (docs/user-guide.md, "Memory is checked"), within about 20%; refusal starts at half the machine's
// memory, so a refused run would have needed at least about 40% of it.
#include <QString>

#include "method/memory_budget.h"
#include "params/param_spec.h"

namespace milab {

struct DensityOptions;

struct MemoryNeed {
  double bytes = 0;  // 0: nothing large, no check
  QString key;       // the setting that drives it, named by the refusal
  QString what;      // e.g. "the conditional negatives' activations, (K/2)^2 pairs x hidden"
  QString advice;    // e.g. "lower K or hidden"
};

// The machine's memory (method/memory_budget.h has what the process may use).
double physicalMemoryBytes();

// A critic applied to every (row, negative) pair, as CNCE and the DEMI family apply g to their negatives: about
// 12 bytes per pair and hidden unit (three float activations) over a 0.3 GB base. Measured at K = 2048: demi
// (1024 x 1024 pairs) at hidden 100 and 50, demi's marginal protocol and cnce (2048 x 2048) (docs/user-guide.md,
// "Memory is checked").
MemoryNeed negativePairsNeed(double rows, double negativesPerRow, double hidden, const QString& pairs);

struct TaskInfo;

// The task's y dimension: fixed by its id, or its `dim` key.
double taskDimY(const TaskInfo& task, const ParamMap& taskParams);

// An oracle critic reads the task's exact PMI for every (row, candidate) pair, broadcast in double: about 48 bytes
// per pair and dimension (72 with a subview x') over 0.3 GB. Measured at dim 20: infonce K = 2048, club batch 4096,
// demi K = 2048 (1024 x 1024 pairs), cnce K = 1024 (docs/user-guide.md, "Memory is checked").
MemoryNeed oraclePairsNeed(double pairs, const TaskInfo& task, const ParamMap& taskParams, const QString& key,
                           const QString& pairsText);

// The score-matrix critics (MethodPlugin's default): a few K x K matrices, 16 K^2 bytes over 0.2 GB (measured at
// K = 8192: docs/user-guide.md, "Memory is checked"), or an oracle's K x K pairs.
MemoryNeed scoreMatrixNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams);

// DoE's and CLUB's q(y|x): batch x hidden activations, about 13 bytes per (row, hidden unit) over 0.2 GB (measured
// at batch 65536, hidden 4096: docs/user-guide.md, "Memory is checked").
MemoryNeed densityModelNeed(const DensityOptions& options);

// "" or the refusal: "KEY: METHOD needs about X GiB for WHAT, more than half of this machine's Y GiB; ADVICE" (or of
// the binding limit on the process: method/memory_budget.h).
QString refuseIfTooLarge(const QString& method, const MemoryNeed& need, const MemoryBudget& budget = memoryBudget());

// A run that trains takes address space however small its tensors: its threads' stacks and malloc arenas and
// OpenBLAS's GEMM buffer, which OpenBLAS retries without end when the allocation fails (a tiny run under a tight
// ulimit -v spun at full speed after its last step and ignored SIGTERM). Under a limit that leaves less than
// kRoomToTrainBytes: "memory: METHOD trains ..., only X MiB are left of LIMIT: raise it". Twice and more what the
// tiny run was measured to need (docs/user-guide.md, "Memory is checked").
constexpr double kRoomToTrainBytes = 256.0 * (1 << 20);
QString refuseWithoutRoomToTrain(const QString& method, const MemoryBudget& left = limitLeft());

}  // namespace milab
