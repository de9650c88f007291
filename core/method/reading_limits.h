#pragma once
// What a finished reading can plausibly be. A run whose final estimate lies outside [low, high] by more than
// three standard errors did not measure anything: its critic or model diverged (or, with an oracle critic, the
// in-batch reading overflowed). It ends as failed with the reason and the number, its curve and files kept,
// instead of "finished" with an estimate that cannot be right. Each method states its limits in its plugin
// (MethodPlugin::readingLimits); most keep the default. Torch-free.
#include <QList>
#include <QString>

namespace milab {

class TaskModel;
struct MethodInfo;
struct NamedValue;

struct ReadingLimits {
  double low = -1.0;  // nats
  QString lowWhy;     // e.g. "MI >= 0"
  double high = 1e300;
  QString highWhy;  // e.g. "above its ceiling log K = 4.159"
};

// The default: MI is never negative, so a reading more than 1 nat below zero is broken; a lower bound never
// exceeds its ceilings; and no reading exceeds 1.5 times the largest MI a task of this family and size allows
// (TaskModel::largestMi: 5 nats per dimension for the covariate Gaussians) plus 1 nat, nor twice the task's exact
// target plus 5 nats (a misspecified DoE on the
// cubic task reads 14.4 for 10; SMILE at lr 1 reads 181). A method that reads far from its target by design
// (CLUB) or whose target is not an MI (log Z) states its own limits.
ReadingLimits defaultReadingLimits(const MethodInfo& info, const QList<NamedValue>& ceilings,
                                   const TaskModel& task);

// "" when the reading is plausible, else the run's failure reason, e.g. "estimate -6377 is impossible
// (MI >= 0): training diverged; lower lr". `trained`: false for an oracle critic (nothing was trained).
QString implausibleReading(const ReadingLimits& limits, double estimate, double stderror, bool trained);

}  // namespace milab
