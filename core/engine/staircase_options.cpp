// A staircase's task keys (mi_schedule, steps_per_level, level_tail): their declaration (staircaseSpecs) and their
// one reader by name (scheduleOf), declared with the schedule in engine/staircase.h.
#include <algorithm>

#include "engine/staircase.h"

namespace milab {

ParamSpecs staircaseSpecs(double maxLevel) {
  const ParamSpec tail = withoutDefault(ParamSpec::integer(
      "level_tail", 0, 1, 10000000,
      "the last N steps of each level whose estimates give its bias, variance and MSE (at most steps_per_level); "
      "auto (null): half the level, at most 500, so a level's warm-up never counts"));
  return {
      ParamSpec::numberList("mi_schedule", 0.0, maxLevel,
                            "MI staircase: the total MI of each level in nats, e.g. 2,4,6,8,10 (empty: no "
                            "staircase; the run's steps become levels x steps_per_level)",
                            true),
      ParamSpec::integer("steps_per_level", kStepsPerLevel, 1, 10000000,
                         "training steps spent at each level of mi_schedule"),
      tail,
  };
}

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
