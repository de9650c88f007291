#include "gaussian_task_options.h"

#include "engine/staircase.h"
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
ParamSpecs gaussianStaircaseSpecs() { return staircaseSpecs(GaussianModel::kMaxMeanDimMi * 1024); }

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
