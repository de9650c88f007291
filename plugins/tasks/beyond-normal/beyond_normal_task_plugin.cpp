#include "beyond_normal_task_plugin.h"

#include <QLocale>
#include <QRegularExpression>

#include "beyond_normal.h"
#include "beyond_normal_options.h"
#include "beyond_normal_task_model.h"

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

// Task `beyond-normal`: the families by keys. Its keys name the fields the id grammar reads.
const QString kCustomId = QStringLiteral("beyond-normal");

TaskInfo customInfo() {
  TaskInfo t;
  t.id = kCustomId;
  t.displayName = "Beyond Normal, your variant (keys)";
  t.family = "beyond-normal";
  t.summary =
      "a Beyond-Normal family with your parameters and transform chain (the id it makes is what runs); "
      "exact I(x;y), samples only";
  t.params = beyondNormalKeySpecs();
  return t;
}

QString number(double v) { return QString::number(v, 'g', QLocale::FloatingPointShortest); }

// The id the keys describe (bmi writes the last transform first), or the error naming the key.
QString idOf(const BeyondNormalOptions& k, QString* id) {
  const QString base = k.base;
  const QString dims = QStringLiteral("%1-%2").arg(k.dimX).arg(k.dimY);
  QString b;
  if (base == "multinormal-dense") b = QStringLiteral("multinormal-dense-%1-%2").arg(dims, number(k.offDiag));
  if (base == "multinormal-sparse")
    b = QStringLiteral("multinormal-sparse-%1-%2-%3").arg(dims).arg(k.nInteracting).arg(number(k.strength));
  if (base == "student-identity" || base == "student")
    b = QStringLiteral("student-identity-%1-%2").arg(dims, number(k.dof));
  if (base == "multinormal") b = QStringLiteral("multinormal-dense-%1-0").arg(dims);
  if (base == "1v1-normal" || base == "1v1-bimodal") b = base + "-" + number(k.correlation);
  if (base == "1v1-additive") b = base + "-" + number(k.epsilon);
  static const QStringList known{"normal_cdf", "half_cube", "asinh", "wiggly", "spiral", "swissroll_x"};
  const QStringList chain = k.transforms.split(',', Qt::SkipEmptyParts);
  for (const QString& raw : chain) {
    const QString t = raw.trimmed();
    if (!known.contains(t)) return QStringLiteral("transforms: '%1' is not one of %2").arg(t.left(40), known.join('|'));
    b = t + "-" + b;
  }
  *id = b;
  return {};
}

// The definition the keys describe. The bases with a covariance of the user's own are the id grammar's identity
// variant with the same dimensions, dof and transforms (which checks them), its covariance then replaced.
QString definitionOf(const BeyondNormalOptions& k, beyond_normal::TaskDefinition* out);

// "task: off_diag in 'ID' must be ..." from the id grammar, said of the key: "off_diag: must be ... (variant ID)".
QString asKeyError(const QString& err) {
  static const QRegularExpression field("^task: (\\w+) in '([^']*)' (.*)$");
  const QRegularExpressionMatch m = field.match(err);
  return m.hasMatch() ? QStringLiteral("%1: %2 (variant %3)").arg(m.captured(1), m.captured(3), m.captured(2)) : err;
}

QString definitionOf(const BeyondNormalOptions& k, beyond_normal::TaskDefinition* out) {
  QString id;
  if (const QString err = idOf(k, &id); !err.isEmpty()) return err;
  beyond_normal::TaskDefinition d;
  if (const QString err = asKeyError(beyond_normal::parseTaskId(id, &d)); !err.isEmpty()) return err;
  const QString base = k.base;
  const QString covariance = k.covariance;
  if (base == "multinormal" || base == "student") {
    if (covariance.trimmed().isEmpty())
      return QStringLiteral("covariance: base %1 needs its %2 x %2 %3 (rows separated by ';')")
          .arg(base)
          .arg(d.dimX + d.dimY)
          .arg(base == "student" ? "dispersion" : "covariance");
    if (const QString err = beyond_normal::parseCovariance(covariance, d.dimX + d.dimY, "covariance", &d.covariance);
        !err.isEmpty())
      return err;
    // "Multinormal 2 × 2 (dense)" or "Student-t 2 × 2 (dof=3)" inside the transforms' names.
    const QString standIn = base == "student" ? QStringLiteral("(dof=") : QStringLiteral("(dense)");
    d.name.replace(standIn,
                   base == "student" ? QStringLiteral("(your dispersion, dof=") : QStringLiteral("(your covariance)"));
    d.id = kCustomId;
  } else if (!covariance.trimmed().isEmpty()) {
    return QStringLiteral("covariance: only bases multinormal and student take one (base is %1)").arg(base);
  }
  *out = d;
  return {};
}

}  // namespace

QString BeyondNormalTaskPlugin::validate(const TaskInfo& task, ParamMap* params) const {
  if (const QString err = TaskPlugin::validate(task, params); !err.isEmpty() || task.id != kCustomId) return err;
  beyond_normal::TaskDefinition d;
  return definitionOf(BeyondNormalOptions::from(*params), &d);
}

QList<TaskInfo> BeyondNormalTaskPlugin::tasks() const {
  QList<TaskInfo> out;
  for (const QString& id : beyond_normal::benchmarkTaskIds()) {
    beyond_normal::TaskDefinition d;
    if (beyond_normal::parseTaskId(id, &d).isEmpty()) out << infoOf(d);
  }
  return out << customInfo();
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
  if (task.id == kCustomId ? !definitionOf(BeyondNormalOptions::from(params), &d).isEmpty()
                           : !beyond_normal::parseTaskId(task.id, &d).isEmpty())
    return nullptr;
  return std::make_unique<BeyondNormalTaskModel>(std::move(d));
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_beyond_normal_task_plugin.cpp"
