#include "method/reading_limits.h"

#include <algorithm>
#include <cmath>

#include "method/method_plugin.h"
#include "tasks/task.h"

namespace milab {

ReadingLimits defaultReadingLimits(const MethodInfo& info, const QList<NamedValue>& ceilings, const TaskModel& task) {
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

ReadingEvidence evidenceOf(bool trained, const QList<std::pair<int, double>>& readings) {
  ReadingEvidence e;
  e.trained = trained;
  for (const auto& [step, reading] : readings)
    if (std::isfinite(reading) && std::abs(reading) > std::abs(e.extremeReading)) {
      e.extremeReading = reading;
      e.extremeStep = step;
    }
  return e;
}

double plausibilityMargin(double limit, double stderror) {
  // Three standard errors, but at most 1 nat + 10% of the limit: a heavy-tailed reading's own spread would
  // otherwise excuse any number (DoE on a Cauchy's held-out samples read thousands of nats below a truth under one
  // nat, with a standard error as large).
  const double se = std::isfinite(stderror) ? stderror : 0.0;
  return std::min(3 * se, 1.0 + 0.1 * std::abs(limit));
}

QString implausibleReading(const ReadingLimits& limits, double estimate, double stderror,
                           const ReadingEvidence& evidence) {
  const auto number = [](double v) { return QString::number(v, 'g', 6); };
  double limit = 0;
  QString why, bound;
  if (const double m = plausibilityMargin(limits.low, stderror); estimate < limits.low - m) {
    limit = limits.low;
    why = limits.lowWhy;
    bound = QStringLiteral("allowed down to %1").arg(number(limits.low - m));
  }
  if (const double m = plausibilityMargin(limits.high, stderror); estimate > limits.high + m) {
    limit = limits.high;
    why = limits.highWhy;
    bound = QStringLiteral("allowed up to %1").arg(number(limits.high + m));
  }
  if (why.isEmpty()) return {};
  QString cause;
  // The curve blew up when a training reading went ten times past the limit's scale (a healthy critic's batch
  // readings stay within a few nats of its target; lr 1 sends InfoNCE's to -6000).
  const double scale = 10 * std::max({std::abs(limit), std::abs(limits.low), 10.0});
  if (!evidence.trained)
    cause = QStringLiteral("the in-batch reading is numerically unstable at this size (nothing was trained)");
  else if (evidence.extremeStep > 0 && std::abs(evidence.extremeReading) > scale)
    cause = QStringLiteral("training diverged (the training reading reached %1 at step %2); lower lr")
                .arg(number(evidence.extremeReading))
                .arg(evidence.extremeStep);
  else if (evidence.extremeStep > 0)
    cause = QStringLiteral(
                "training did not diverge (the farthest training reading, %1 at step %2, is within "
                "+-%3): the critic or model reads outside what it can (train longer, or change lr or its "
                "size)")
                .arg(number(evidence.extremeReading))
                .arg(evidence.extremeStep)
                .arg(number(scale));
  else
    cause = QStringLiteral("no training step was recorded to tell why");
  return QStringLiteral("estimate %1 is implausible (%2; %3): %4").arg(number(estimate), why, bound, cause);
}

QString pastLimitReason(const ReadingLimits& limits, double estimate, double stderror) {
  const bool high = estimate > limits.high, low = estimate < limits.low;
  if (!high && !low) return {};
  const double limit = high ? limits.high : limits.low;
  return QStringLiteral(
             "the estimate %1 lies past its limit %2 (%3), by less than its noise allows (%4 nats: 3 standard errors "
             "of %5, at most 1 nat + 10% of the limit): let through, but a reading past its limit is seldom right")
      .arg(estimate, 0, 'g', 6)
      .arg(limit, 0, 'g', 6)
      .arg(high ? limits.highWhy : limits.lowWhy)
      .arg(plausibilityMargin(limit, stderror), 0, 'g', 3)
      .arg(stderror, 0, 'g', 3);
}

}  // namespace milab
