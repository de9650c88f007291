#pragma once
// The MI staircase (Poole et al. 2019; Song & Ermon 2020): one training run in which the task's true MI steps
// through levels, every other setting fixed. Task keys: mi_schedule ("2,4,6,8,10"), steps_per_level and
// level_tail (the last N steps of each level that its statistics read). Torch-free.
#include <QList>
#include <QVector>

#include "params/param_spec.h"

namespace milab {

struct CurvePoint;

struct MiSchedule {
  QList<double> levels;  // total MI of each level, in nats; empty: no schedule
  int stepsPerLevel = 0;
  int tail = 0;  // the last steps of a level its statistics read; level_tail, or automatic (below)
  bool isSet() const { return !levels.isEmpty(); }
  int totalSteps() const { return int(levels.size()) * stepsPerLevel; }
  // 0-based level of a 1-based training step.
  int levelOf(int step) const { return std::min<int>(int(levels.size()) - 1, (step - 1) / stepsPerLevel); }
};

// level_tail's automatic value: half a level, at most this many steps.
constexpr int kAutoTailMax = 500;
// steps_per_level's default.
constexpr int kStepsPerLevel = 4000;

// The staircase's task keys (mi_schedule, steps_per_level, level_tail), as every task family with an `mi` key
// declares them; `maxLevel` bounds mi_schedule's levels (a family's own rule may bound them further).
ParamSpecs staircaseSpecs(double maxLevel);

// The schedule a task's validated parameters describe.
MiSchedule scheduleOf(const ParamMap& taskParams);

// What the estimate did over the last `tail` steps of one level, against the exact value of what the method
// estimates at that level (the total MI, or I(x;y|x') for cnce).
struct LevelResult {
  double mi = 0;      // the level's total MI
  double target = 0;  // the exact value the method estimates at this level
  int steps = 0;      // training steps the statistics read (0: the level was not reached)
  double mean = 0, bias = 0, variance = 0, mse = 0;
};

// Per-level statistics of a training curve: mean, bias (mean - target), variance and mean squared error of the
// estimate over the last `schedule.tail` steps of each level (fewer when the run stopped inside that window).
QList<LevelResult> levelStatistics(const QVector<CurvePoint>& curve, const MiSchedule& schedule,
                                   const QList<double>& targets);

}  // namespace milab
