#include "gaussian_task_options.h"

#include "gaussian_model.h"

namespace milab {

namespace {

// The one message for an MI out of range: it names the bound that applies at this dim, on either side.
QString miRangeError(int dim, const QVariant& value) {
  return QStringLiteral("mi: must be a number in (0, %1] (5 nats per dimension, dim=%2), got %3")
      .arg(GaussianModel::kMaxMeanDimMi * dim)
      .arg(dim)
      .arg(value.toString());
}

}  // namespace

ParamSpecs gaussianSizeSpecs() {
  const GaussianTaskOptions d;
  return {
      ParamSpec::integer("dim", d.dim, 1, 1024, "dimension of each of x, (x',) y"),
      ParamSpec::real("mi", d.mi, 0.0, GaussianModel::kMaxMeanDimMi * 1024,
                      "target total mutual information in nats (at most 5 per dimension)", true, false),
  };
}

// The MI staircase: one run whose true MI steps through levels (empty schedule: the MI stays `mi`).
ParamSpecs gaussianStaircaseSpecs() {
  const ParamSpec tail = withoutDefault(ParamSpec::integer(
      "level_tail", 0, 1, 10000000,
      "the last N steps of each level whose estimates give its bias, variance and MSE (at most steps_per_level); "
      "auto (null): half the level, at most 500, so a level's warm-up never counts"));
  return {
      ParamSpec::numberList("mi_schedule", 0.0, GaussianModel::kMaxMeanDimMi * 1024,
                            "MI staircase: the total MI of each level in nats, e.g. 2,4,6,8,10 (empty: no "
                            "staircase; the run's steps become levels x steps_per_level)",
                            true),
      ParamSpec::integer("steps_per_level", GaussianTaskOptions::kStepsPerLevel, 1, 10000000,
                         "training steps spent at each level of mi_schedule"),
      tail,
  };
}

QString validateGaussianParams(const TaskInfo& task, ParamMap* params) {
  const QString err = validateParamMap(task.params, params, "task " + task.id);
  if (err.startsWith("mi: ")) {
    bool ok = false;
    const int dim = params->value("dim", GaussianTaskOptions{}.dim).toInt(&ok);
    if (ok && dim >= 1 && dim <= 1024) return miRangeError(dim, params->value("mi"));
  }
  if (!err.isEmpty()) return err;
  const int dim = params->value("dim").toInt();
  const QList<double> levels = numberListValues(params->value("mi_schedule"));
  if (!levels.isEmpty()) params->insert("mi", levels.last());  // the final evaluation reads the last level
  const double mi = params->value("mi").toDouble();
  const double maxMi = GaussianModel::kMaxMeanDimMi * dim;
  for (double level : levels)
    if (level > maxMi)
      return QStringLiteral("mi_schedule: every level must be in (0, %1] (5 nats per dimension, dim=%2), got %3")
          .arg(maxMi)
          .arg(dim)
          .arg(level);
  if (mi > maxMi) return miRangeError(dim, mi);
  return {};
}

GaussianTaskOptions GaussianTaskOptions::from(const ParamMap& params) {
  GaussianTaskOptions o;
  o.dim = params.value("dim").toInt();
  o.mi = params.value("mi").toDouble();
  o.cubic = params.value("cubic").toBool();
  if (!params.value("alpha").isNull()) o.alpha = params.value("alpha").toDouble();
  return o;
}

}  // namespace milab
