#include "method/memory_need.h"

#include <unistd.h>

#include "method/critic_options.h"
#include "method/density_options.h"
#include "method/method_plugin.h"
#include "tasks/shared_task_options.h"
#include "tasks/task.h"

namespace milab {

double physicalMemoryBytes() { return double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE)); }

MemoryNeed negativePairsNeed(double rows, double negativesPerRow, double hidden, const QString& pairs) {
  return {3e8 + 12 * rows * negativesPerRow * hidden, "K",
          QStringLiteral("the critic's activations on its negatives (%1 pairs x hidden %2)").arg(pairs).arg(hidden),
          "lower K or hidden"};
}

double taskDimY(const TaskInfo& task, const ParamMap& taskParams) {
  return task.dimY ? task.dimY : SharedTaskOptions::from(taskParams).dim.value_or(0);
}

MemoryNeed oraclePairsNeed(double pairs, const TaskInfo& task, const ParamMap& taskParams, const QString& key,
                           const QString& pairsText) {
  const double dim = taskDimY(task, taskParams), perPairDim = task.hasSubview() ? 72 : 48;
  return {3e8 + perPairDim * pairs * dim, key,
          QStringLiteral("the oracle's exact PMI over %1 pairs x dimension %2, in double").arg(pairsText).arg(dim),
          QStringLiteral("lower %1").arg(key)};
}

MemoryNeed scoreMatrixNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) {
  const SharedMethodOptions shared = SharedMethodOptions::from(params);
  if (!shared.K) return {};
  const double K = double(*shared.K);
  if (shared.oracleCritic()) return oraclePairsNeed(K * K, task, taskParams, "K", QStringLiteral("K x K"));
  if (shared.critic == QStringLiteral("joint")) {
    // Every pair runs the MLP: its activations (and their gradients), about 12 bytes per pair and hidden unit,
    // as the conditional negatives' (negativePairsNeed).
    double units = 0;
    for (int w : CriticOptions::from(params).layers) units += w;
    return {2e8 + 16 * K * K + 12 * K * K * units, "K",
            QStringLiteral("the joint critic's activations, K x K pairs x %1 hidden units (K = %2)").arg(units).arg(K),
            "lower K or layers"};
  }
  return {2e8 + 16 * K * K, "K", QStringLiteral("its K x K score matrices (K = %1)").arg(K), "lower K"};
}

MemoryNeed densityModelNeed(const DensityOptions& options) {
  const double batch = options.batch, hidden = options.hidden;
  return {2e8 + 13 * batch * hidden, "batch",
          QStringLiteral("the activations of q(y|x) (batch %1 x hidden %2)").arg(batch).arg(hidden),
          "lower batch or hidden"};
}

QString refuseIfTooLarge(const QString& method, const MemoryNeed& need, const MemoryBudget& budget) {
  if (need.bytes <= 0.5 * budget.bytes) return {};
  constexpr double kGiB = double(1 << 30);
  return QStringLiteral("%1: %2 needs about %3 GiB for %4, more than half of %5; %6")
      .arg(need.key, method)
      .arg(need.bytes / kGiB, 0, 'f', 1)
      .arg(need.what, budget.phrase(), need.advice);
}

QString refuseWithoutRoomToTrain(const QString& method, const MemoryBudget& left) {
  if (left.bytes < 0 || left.bytes >= kRoomToTrainBytes) return {};
  constexpr double kMiB = double(1 << 20);
  return QStringLiteral(
             "memory: %1 trains, which takes about %2 MiB of address space beyond its tensors (threads, LibTorch's "
             "BLAS buffer); only %3 MiB are left of %4: raise it")
      .arg(method)
      .arg(kRoomToTrainBytes / kMiB, 0, 'f', 0)
      .arg(left.bytes / kMiB, 0, 'f', 0)
      .arg(left.whose);
}

}  // namespace milab
