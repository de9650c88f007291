#include "gaussian_task_plugin.h"

#include "gaussian_task_model.h"

namespace milab {

namespace {

ParamSpecs commonSpecs() {
  return {
      ParamSpec::integer("dim", 20, 1, 1024, "dimension of each of x, (x',) y"),
      ParamSpec::real("mi", 10.0, 0.0, GaussianModel::kMaxMeanDimMi * 1024,
                      "target total mutual information in nats (at most 5 per dimension)", true, false),
  };
}

// The MI staircase: one run whose true MI steps through levels (empty schedule: the MI stays `mi`).
ParamSpecs staircaseSpecs() {
  ParamSpec tail = ParamSpec::integer(
      "level_tail", 0, 1, 10000000,
      "the last N steps of each level whose estimates give its bias, variance and MSE (at most steps_per_level); "
      "auto (null): half the level, at most 500, so a level's warm-up never counts");
  tail.optional = true;
  tail.defaultValue = QVariant();
  return {
      ParamSpec::numberList("mi_schedule", 0.0, GaussianModel::kMaxMeanDimMi * 1024,
                            "MI staircase: the total MI of each level in nats, e.g. 2,4,6,8,10 (empty: no "
                            "staircase; the run's steps become levels x steps_per_level)",
                            true),
      ParamSpec::integer("steps_per_level", 4000, 1, 10000000, "training steps spent at each level of mi_schedule"),
      tail,
  };
}

// The one message for an MI out of range: it names the bound that applies at this dim, on either side.
QString miRangeError(int dim, const QVariant& value) {
  return QStringLiteral("mi: must be a number in (0, %1] (5 nats per dimension, dim=%2), got %3")
      .arg(GaussianModel::kMaxMeanDimMi * dim)
      .arg(dim)
      .arg(value.toString());
}

}  // namespace

QList<TaskInfo> GaussianTaskPlugin::tasks() const {
  TaskInfo g2;
  g2.id = "gaussian2";
  g2.displayName = "Gaussian pair (x, y)";
  g2.family = "gaussian";
  g2.summary = "x, y in R^dim, corr(x_i, y_i) = rho in every dimension; exact I(x;y), PMI and densities";
  g2.params = commonSpecs();
  g2.params[1].defaultValue = 2.0;
  g2.params << ParamSpec::boolean("cubic", false, "transform y -> y^3 (MI unchanged)") << staircaseSpecs();
  g2.capabilities = {false, true, true};

  TaskInfo g3;
  g3.id = "gaussian3";
  g3.displayName = "Gaussian triple (x, x', y)";
  g3.family = "gaussian";
  g3.summary =
      "x, x', y in R^dim, the MI split at random over dimensions (DEMI sec. 5.1); exact I(x,x';y), "
      "I(x';y), I(x;y|x'), PMIs, densities and samples of p(y|x')";
  g3.params = commonSpecs();
  ParamSpec alpha = ParamSpec::real("alpha", 0.5, 0.0, 1.0,
                                    "I(x';y) / I(x,x';y) per dimension; unset draws it from U(0.1, 0.9)", true, true);
  alpha.optional = true;
  alpha.label = "alpha = I(x';y) / I(x,x';y)";
  alpha.defaultValue = QVariant();
  g3.params << alpha << staircaseSpecs();
  g3.capabilities = {true, true, true};
  return {g2, g3};
}

QString GaussianTaskPlugin::validate(const TaskInfo& task, ParamMap* params) const {
  const QString err = validateParamMap(task.params, params, "task " + task.id);
  if (err.startsWith("mi: ")) {
    bool ok = false;
    const int dim = params->value("dim", 20).toInt(&ok);
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

std::unique_ptr<TaskModel> GaussianTaskPlugin::build(const TaskInfo& task, const ParamMap& params,
                                                     std::uint64_t seed) const {
  const int dim = params.value("dim").toInt();
  const double mi = params.value("mi").toDouble();
  if (task.id == "gaussian2")
    return std::make_unique<GaussianTaskModel>(GaussianModel::pair(dim, mi, params.value("cubic").toBool()));
  std::optional<double> alpha;
  if (!params.value("alpha").isNull()) alpha = params.value("alpha").toDouble();
  return std::make_unique<GaussianTaskModel>(GaussianModel::triple(dim, mi, alpha, seed));
}

}  // namespace milab
