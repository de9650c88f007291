#include "engine/staircase.h"

#include <algorithm>

#include "engine/run.h"

namespace milab {

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
