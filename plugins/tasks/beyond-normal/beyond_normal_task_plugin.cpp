#include "beyond_normal_task_plugin.h"

#include "beyond_normal.h"
#include "beyond_normal_options.h"
#include "beyond_normal_task_model.h"
#include "beyond_normal_variant.h"

namespace milab {

namespace {

TaskInfo infoOf(const beyond_normal::TaskDefinition& d) {
  TaskInfo t;
  t.id = d.id;
  t.displayName = d.name;
  t.family = "beyond-normal";
  t.summary = QStringLiteral("Beyond Normal (bmi): %1; exact I(x;y) = %2 nats; samples only, unstandardised")
                  .arg(d.name)
                  .arg(beyond_normal::exactMutualInformation(d), 0, 'f', 4);
  t.dimX = d.sampledDimX();
  t.dimY = d.sampledDimY();
  return t;  // no parameters: the id names every one; no x', PMI or densities
}

// Task `beyond-normal`: the families by keys. Its keys name the fields of the variant they fill.
const QString kKeysTaskId = QStringLiteral("beyond-normal");

TaskInfo keysTaskInfo() {
  TaskInfo t;
  t.id = kKeysTaskId;
  t.displayName = "Beyond Normal, your variant (keys)";
  t.family = "beyond-normal";
  t.summary =
      "a Beyond-Normal family with your parameters and transform chain (the id it makes is what runs); "
      "exact I(x;y), samples only";
  t.params = beyondNormalKeySpecs();
  return t;
}

using beyond_normal::Family;

// The variant the keys describe: "" or the error naming the key. The bases multinormal and student are the dense
// and student-identity families with a covariance (dispersion) of the user's own.
QString variantOf(const BeyondNormalOptions& k, beyond_normal::TaskVariant* v) {
  // Every base is a family's id spelling but the two with a covariance of the user's own (validated: one of them).
  v->family = k.base == "multinormal" ? Family::Dense
              : k.base == "student"   ? Family::StudentIdentity
                                      : beyond_normal::familyNamed(k.base).value_or(Family::Dense);
  const bool oneByOne = beyond_normal::isOneByOne(v->family);
  v->dimX = oneByOne ? 1 : k.dimX;
  v->dimY = oneByOne ? 1 : k.dimY;
  v->correlation = k.correlation;
  v->epsilon = k.epsilon;
  v->offDiag = k.base == "multinormal" ? 0.0 : k.offDiag;  // replaced by the user's covariance
  v->interacting = k.nInteracting;
  v->strength = k.strength;
  v->dof = k.dof;
  for (const QString& raw : k.transforms.split(',', Qt::SkipEmptyParts)) {
    const QString t = raw.trimmed();
    const std::optional<beyond_normal::Transform> transform = beyond_normal::transformNamed(t);
    if (!transform)
      return QStringLiteral("transforms: '%1' is not one of %2")
          .arg(t.left(40), beyond_normal::transformNames().join('|'));
    v->transforms << *transform;
  }
  return {};
}

QString definitionOf(const BeyondNormalOptions& k, beyond_normal::TaskDefinition* out) {
  beyond_normal::TaskVariant v;
  if (const QString err = variantOf(k, &v); !err.isEmpty()) return err;
  if (const beyond_normal::VariantError e = beyond_normal::checkVariant(v); !e.isEmpty())
    return QStringLiteral("%1: %2 (variant %3)").arg(e.field, e.rule, beyond_normal::variantId(v));
  const bool own = k.base == "multinormal" || k.base == "student";
  if (!own && !k.covariance.trimmed().isEmpty())
    return QStringLiteral("covariance: only bases multinormal and student take one (base is %1)").arg(k.base);
  beyond_normal::TaskDefinition d = beyond_normal::defineTask(v, own);
  if (own) {
    if (k.covariance.trimmed().isEmpty())
      return QStringLiteral("covariance: base %1 needs its %2 x %2 %3 (rows separated by ';')")
          .arg(k.base)
          .arg(d.dimX + d.dimY)
          .arg(k.base == "student" ? "dispersion" : "covariance");
    if (const QString err = beyond_normal::parseCovariance(k.covariance, d.dimX + d.dimY, "covariance", &d.covariance);
        !err.isEmpty())
      return err;
    d.id = kKeysTaskId;
  }
  *out = d;
  return {};
}

}  // namespace

QString BeyondNormalTaskPlugin::validate(const TaskInfo& task, ParamMap* params) const {
  if (const QString err = TaskPlugin::validate(task, params); !err.isEmpty() || task.id != kKeysTaskId) return err;
  beyond_normal::TaskDefinition d;
  return definitionOf(BeyondNormalOptions::from(*params), &d);
}

QList<TaskInfo> BeyondNormalTaskPlugin::tasks() const {
  QList<TaskInfo> out;
  for (const QString& id : beyond_normal::benchmarkTaskIds()) {
    beyond_normal::TaskDefinition d;
    if (beyond_normal::parseTaskId(id, &d).isEmpty()) out << infoOf(d);
  }
  return out << keysTaskInfo();
}

std::optional<TaskInfo> BeyondNormalTaskPlugin::variant(const QString& id, QString* error) const {
  beyond_normal::TaskDefinition d;
  const QString err = beyond_normal::parseTaskId(id, &d);
  if (err.isEmpty()) return infoOf(d);
  // An id of no family of this benchmark is another plugin's (or nobody's): only a malformed one of ours is an error.
  if (!err.startsWith(QStringLiteral("task: unknown task"))) *error = err;
  return std::nullopt;
}

std::unique_ptr<TaskModel> BeyondNormalTaskPlugin::build(const TaskInfo& task, const ParamMap& params,
                                                         std::uint64_t) const {
  beyond_normal::TaskDefinition d;
  if (task.id == kKeysTaskId ? !definitionOf(BeyondNormalOptions::from(params), &d).isEmpty()
                             : !beyond_normal::parseTaskId(task.id, &d).isEmpty())
    return nullptr;
  return std::make_unique<BeyondNormalTaskModel>(std::move(d));
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_beyond_normal_task_plugin.cpp"
