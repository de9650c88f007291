#include "engine/staircase.h"

#include <algorithm>

#include "engine/run.h"

namespace milab {

MiSchedule scheduleOf(const ParamMap& taskParams) {
  MiSchedule s;
  s.levels = numberListValues(taskParams.value("mi_schedule"));
  s.stepsPerLevel = taskParams.value("steps_per_level").toInt();
  const QVariant tail = taskParams.value("level_tail");
  s.tail = tail.isNull() ? std::clamp(s.stepsPerLevel / 2, 1, kAutoTailMax) : tail.toInt();
  if (s.stepsPerLevel < 1) s.levels.clear();
  return s;
}

QList<LevelResult> levelStatistics(const QVector<CurvePoint>& curve, const MiSchedule& schedule,
                                   const QList<double>& targets) {
  QList<LevelResult> out;
  for (int level = 0; level < schedule.levels.size(); ++level) {
    LevelResult r;
    r.mi = schedule.levels[level];
    r.target = targets.value(level);
    const int last = (level + 1) * schedule.stepsPerLevel;
    const int first = last - std::min(schedule.tail, schedule.stepsPerLevel) + 1;
    double sum = 0, sumSq = 0, sumErr2 = 0;
    for (const CurvePoint& p : curve) {
      if (p.step < first || p.step > last) continue;
      ++r.steps;
      sum += p.estimate;
      sumSq += p.estimate * p.estimate;
      sumErr2 += (p.estimate - r.target) * (p.estimate - r.target);
    }
    if (r.steps > 0) {
      r.mean = sum / r.steps;
      r.bias = r.mean - r.target;
      r.variance = std::max(0.0, sumSq / r.steps - r.mean * r.mean);
      r.mse = sumErr2 / r.steps;  // = bias^2 + variance
    }
    out << r;
  }
  return out;
}

}  // namespace milab
