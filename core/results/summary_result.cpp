// summary.json back into a RunResult (see summary_result.h).
#include "results/summary_result.h"

#include <QJsonArray>
#include <limits>

namespace milab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QList<NamedValue> namedValuesOfObject(const QJsonObject& o) {
  QList<NamedValue> out;
  for (auto it = o.begin(); it != o.end(); ++it) out << NamedValue{it.key(), it.value().toDouble(kNaN)};
  return out;
}

}  // namespace

bool resultFromSummary(const QJsonObject& o, RunResult* result) {
  const QString status = o.value("status").toString();
  RunResult r;
  if (status == statusName(RunStatus::Finished))
    r.status = RunStatus::Finished;
  else if (status == statusName(RunStatus::Failed))
    r.status = RunStatus::Failed;
  else if (status == statusName(RunStatus::Cancelled))
    r.status = RunStatus::Cancelled;
  else
    return false;
  r.fromEvaluation = r.status == RunStatus::Finished;
  r.reason = o.value("reason").toString();
  r.estimate = o.value("estimate").toDouble();
  r.stderror = o.value("stderr").toDouble();
  r.trueMi = o.value("true_mi").toDouble(kNaN);  // null: a table's unknown truth
  r.trueMiStderr = o.value("true_mi_stderr").toDouble(0);
  r.targetName = o.value("target").toString();
  r.seconds = o.value("seconds").toDouble();
  r.stepsDone = o.value("steps_done").toInt();
  r.device = o.value("device").toString();
  r.ceilings = namedValuesOfObject(o.value("ceilings").toObject());
  r.terms = namedValuesOfObject(o.value("terms").toObject());
  r.readings = namedValuesOfObject(o.value("readings").toObject());
  r.truths = namedValuesOfObject(o.value("truths").toObject());
  for (const QJsonValue& v : o.value("levels").toArray()) {
    const QJsonObject l = v.toObject();
    r.levels << LevelResult{l.value("mi").toDouble(),   l.value("target").toDouble(), l.value("steps").toInt(),
                            l.value("mean").toDouble(), l.value("bias").toDouble(),   l.value("variance").toDouble(),
                            l.value("mse").toDouble()};
  }
  r.stepsPerLevel = o.value("steps_per_level").toInt();
  r.warning = o.value("warning").toString();
  const QJsonObject flags = o.value("flags").toObject();
  for (auto it = flags.constBegin(); it != flags.constEnd(); ++it) r.flags << RunFlag{it.key(), it.value().toString()};
  r.upperBound = o.value("upper_bound").toBool();
  const QJsonObject baseline = o.value("permutation_baseline").toObject();
  if (!baseline.isEmpty()) {
    r.baseline = baseline.value("estimate").toDouble(kNaN);
    r.baselineStderr = baseline.value("stderr").toDouble(kNaN);
  }
  *result = r;
  return true;
}

}  // namespace milab
