#include "method/memory_need.h"

#include <unistd.h>

namespace milab {

double physicalMemoryBytes() { return double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE)); }

MemoryNeed negativePairsNeed(double rows, double negativesPerRow, double hidden, const QString& pairs) {
  return {3e8 + 12 * rows * negativesPerRow * hidden, "K",
          QStringLiteral("the critic's activations on its negatives (%1 pairs x hidden %2)").arg(pairs).arg(hidden),
          "lower K or hidden"};
}

QString refuseIfTooLarge(const QString& method, const MemoryNeed& need, double machineBytes) {
  if (need.bytes <= 0.5 * machineBytes) return {};
  constexpr double kGiB = double(1 << 30);
  return QStringLiteral("%1: %2 needs about %3 GiB for %4, more than half of this machine's %5 GiB; %6")
      .arg(need.key, method)
      .arg(need.bytes / kGiB, 0, 'f', 1)
      .arg(need.what)
      .arg(machineBytes / kGiB, 0, 'f', 1)
      .arg(need.advice);
}

}  // namespace milab
