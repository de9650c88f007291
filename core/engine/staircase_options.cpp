// The one reader of a staircase's task keys (mi_schedule, steps_per_level, level_tail) by name: scheduleOf,
// declared with the schedule in engine/staircase.h.
#include <algorithm>

#include "engine/staircase.h"

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

}  // namespace milab
