#include "method/reading_limits.h"

#include <algorithm>
#include <cmath>

#include "method/method_plugin.h"
#include "tasks/task.h"

namespace milab {

ReadingLimits defaultReadingLimits(const MethodInfo& info, const QList<NamedValue>& ceilings,
                                   const TaskModel& task) {
  ReadingLimits l;
  l.lowWhy = QStringLiteral("MI >= 0");
  const double largest = task.largestMi();
  if (std::isfinite(largest)) {
    l.high = 1.5 * largest + 1.0;
    l.highWhy = QStringLiteral("above 1.5 x the %1 nats a %2-dimensional task allows, + 1 nat")
                    .arg(largest, 0, 'g', 6)
                    .arg(task.dimY());
  }
  // The lab knows what it asked for: a reading more than twice the exact target plus 5 nats is no estimate of it.
  const double target = info.target == Target::ConditionalMi ? task.conditionalMi() : task.totalMi();
  if (info.target != Target::LogNormaliser && 2 * target + 5 < l.high) {
    l.high = 2 * target + 5;
    l.highWhy = QStringLiteral("above twice the task's exact %1 nats, + 5 nats").arg(target, 0, 'g', 6);
  }
  if (info.lowerBound)
    for (const NamedValue& c : ceilings)
      if (c.value < l.high) {
        l.high = c.value;
        l.highWhy = QStringLiteral("above its ceiling %1 = %2").arg(c.name).arg(c.value, 0, 'f', 3);
      }
  return l;
}

QString implausibleReading(const ReadingLimits& limits, double estimate, double stderror, bool trained) {
  // Three standard errors, but at most 1 nat + 10% of the limit: a heavy-tailed reading's own spread would
  // otherwise excuse any number (DoE read -4203 +- 4130 nats on a Cauchy's held-out samples, truth 0.43).
  const double se = std::isfinite(stderror) ? stderror : 0.0;
  const auto margin = [se](double limit) { return std::min(3 * se, 1.0 + 0.1 * std::abs(limit)); };
  QString why;
  if (estimate < limits.low - margin(limits.low)) why = limits.lowWhy;
  if (estimate > limits.high + margin(limits.high)) why = limits.highWhy;
  if (why.isEmpty()) return {};
  return QStringLiteral("estimate %1 is impossible (%2): %3")
      .arg(estimate, 0, 'g', 6)
      .arg(why)
      .arg(trained ? QStringLiteral("training diverged; lower lr")
                   : QStringLiteral("the in-batch reading is numerically unstable at this size (nothing was trained)"));
}

}  // namespace milab
