#pragma once
// What a finished reading can plausibly be. A run whose final estimate lies outside [low, high] by more than its
// margin did not measure anything: its critic or model diverged or learned nothing (or, with an oracle critic,
// the in-batch reading overflowed). It ends as failed with the reason and the number, its curve and files kept,
// instead of "finished" with an estimate that cannot be right. Each method states its limits in its plugin
// (MethodPlugin::readingLimits); most keep the default. Torch-free.
#include <QList>
#include <QString>
#include <utility>

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
// target plus 5 nats (a diverged SMILE reads an order of magnitude past its target: docs/user-guide.md,
// "Nothing impossible"). A method that reads far from its target by design
// (CLUB) or whose target is not an MI (log Z) states its own limits.
ReadingLimits defaultReadingLimits(const MethodInfo& info, const QList<NamedValue>& ceilings, const TaskModel& task);

// What the run did, for the words of a failure: whether anything was trained, and the training reading of largest
// magnitude on the curve (its step), which tells a divergence from a critic that merely learned nothing.
struct ReadingEvidence {
  bool trained = true;        // false for an oracle critic
  double extremeReading = 0;  // the training-batch reading farthest from 0 on the curve
  int extremeStep = 0;        // its step (0: no training step was recorded)
};

// The training reading of largest magnitude on a curve of (step, reading) pairs: the evidence above.
ReadingEvidence evidenceOf(bool trained, const QList<std::pair<int, double>>& readings);

// The distance from a limit a reading may lie and still be plausible: three standard errors, but at most 1 nat +
// 10% of the limit.
double plausibilityMargin(double limit, double stderror);

// "" when the reading is plausible, else the run's failure reason naming the limit, the margin allowed and the
// evidence, e.g. "estimate -6377 is implausible (MI >= 0; allowed down to -2.1): training diverged (the training
// reading reached -9812 at step 37); lower lr". Divergence is said only when the curve blew up (a training reading
// beyond 10 times the limit's scale); otherwise "training did not diverge (the farthest training reading, R at step
// S, ...)"; an oracle's (nothing trained) "in-batch reading is numerically unstable".
QString implausibleReading(const ReadingLimits& limits, double estimate, double stderror,
                           const ReadingEvidence& evidence);
// "" unless the reading lies past a limit but within the margin implausibleReading allows it: then the reason of the
// run's past_limit flag (engine/run_diagnostics.h), naming the limit and the margin (a noisy reading just past its limit, as SMILE's at lr 1, was let through
// unsaid: issue 80). Said, not failed: the margin is the reading's own noise.
QString pastLimitReason(const ReadingLimits& limits, double estimate, double stderror);

}  // namespace milab
