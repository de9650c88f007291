#include "engine/final_reading_check.h"

#include <cmath>

#include "engine/reading_params_options.h"
#include "engine/run_diagnostics.h"
#include "engine/staircase.h"
#include "method/method_plugin.h"
#include "method/reading_limits.h"
#include "tasks/task.h"

namespace milab {

QString implausibleFinalReading(const MethodPlugin& method, const RunSpec& spec, const TaskModel& finalTask,
                                bool heldOut, const QVector<CurvePoint>& points, const MiSchedule& schedule,
                                const std::vector<std::unique_ptr<TaskModel>>& levelModels, RunResult* res) {
  const bool trained = method.info().trains && !usesOracleCritic(spec.methodParams);
  ReadingLimits limits = method.readingLimits(readingParams(method.info(), spec), finalTask);
  if (heldOut && method.info().lowerBound) {
    // On samples it never saw, a critic that memorised its training part reads far below 0 (several nats for a
    // hundred memorised pairs): a valid, loose lower bound, said but not failed. Down to a floor: an exponential
    // bound (NWJ) read some 10^15 nats below 0 on a heavy-tailed held-out part, which is no reading at all.
    const double floor = -std::max(10.0, std::isfinite(res->trueMi) ? 2 * res->trueMi + 5 : 10.0);
    limits.low = floor;
    limits.lowWhy = QStringLiteral("a held-out reading below %1 nats: the critic fails on samples it never saw")
                        .arg(floor, 0, 'g', 4);
    if (res->estimate < 0 && res->estimate >= floor) {
      const QString overfit = QStringLiteral(
          "the held-out reading is below 0: the critic overfits its training part (fewer steps, early_stopping, "
          "or more samples)");
      res->warning = res->warning.isEmpty() ? overfit : res->warning + "; " + overfit;
    }
  }
  // A network that collapsed after its loss blew up reads exactly 0 on every held-out batch: a reading with no
  // spread that says nothing of the data (minde-c and flow-mi at lr 1 finished at 0 +- 0 before, issue 80).
  if (trained && res->estimate == 0 && res->stderror == 0)
    if (const auto b = lossBlowUp(points))
      return QStringLiteral("estimate 0 with no spread is no reading: %1").arg(divergedReason(*b));
  QList<std::pair<int, double>> readings;
  for (const CurvePoint& p : points) readings.append({p.step, p.estimate});
  const ReadingEvidence evidence = evidenceOf(trained, readings);
  const QString implausible = implausibleReading(limits, res->estimate, res->stderror, evidence);
  if (!implausible.isEmpty()) return implausible;
  // Past the limit within its noise: said by a flag, unless the limit is a ceiling it reads at (at_ceiling says so).
  if (const QString past = pastLimitReason(limits, res->estimate, res->stderror); !past.isEmpty() && !atCeiling(*res))
    res->flags << RunFlag{"past_limit", past};
  // A staircase's earlier levels are read from their last training steps: each against its own level's limits.
  if (schedule.isSet()) {
    QList<double> targets;
    for (const LevelResult& l : res->levels) targets << l.target;
    const QList<LevelResult> levels = levelStatistics(points, schedule, targets);
    for (int level = 0; level + 1 < levels.size(); ++level) {
      const LevelResult& l = levels[level];
      if (l.steps == 0) continue;
      const ReadingLimits own = method.readingLimits(spec.methodParams, *levelModels[size_t(level)]);
      const QString why = implausibleReading(own, l.mean, std::sqrt(l.variance / l.steps), evidence);
      if (!why.isEmpty())
        return QStringLiteral("level %1 (MI %2), mean of its last %3 training readings: %4")
            .arg(level + 1)
            .arg(l.mi, 0, 'g', 6)
            .arg(l.steps)
            .arg(why);
    }
  }
  return {};
}

}  // namespace milab
