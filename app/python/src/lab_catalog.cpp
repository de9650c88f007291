#include "lab_catalog.h"

#include <QJsonObject>

#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "engine/run_settings_options.h"
#include "params/param_spec.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

QString typeName(ParamSpec::Type type) {
  switch (type) {
    case ParamSpec::Type::Int:
      return "int";
    case ParamSpec::Type::Double:
      return "float";
    case ParamSpec::Type::Bool:
      return "bool";
    case ParamSpec::Type::Choice:
      return "choice";
    case ParamSpec::Type::NumberList:
      return "number list";
    case ParamSpec::Type::Text:
      return "text";
  }
  return {};
}

QJsonArray keysOf(const ParamSpecs& specs) {
  QJsonArray out;
  for (const ParamSpec& s : specs) {
    QJsonObject key{{"name", s.name},
                    {"type", typeName(s.type)},
                    {"default", QJsonValue::fromVariant(s.defaultValue)},
                    {"allowed", describeAllowed(s)},
                    {"help", s.help},
                    {"unit", s.unit}};
    if (s.type == ParamSpec::Type::Choice) key.insert("choices", QJsonArray::fromStringList(s.choices));
    out << key;
  }
  return out;
}

}  // namespace

const MethodRegistry& moduleRegistry() {
  static const MethodRegistry* registry = [] {
    auto* r = new MethodRegistry;  // kept for the process: runs may outlive any Python object that asked
    r->loadDefault();
    return r;
  }();
  return *registry;
}

QJsonArray taskList() {
  QJsonArray out;
  for (const TaskInfo& t : availableTasks())
    out << QJsonObject{{"id", t.id},           {"name", t.displayName},   {"family", t.family},
                       {"summary", t.summary}, {"dataset", t.dataset},    {"dim_x", t.dimX},
                       {"dim_y", t.dimY},      {"keys", keysOf(t.params)}};
  return out;
}

QJsonArray methodList() {
  QJsonArray out;
  for (const MethodPlugin* m : moduleRegistry().methods()) {
    const MethodInfo info = m->info();
    out << QJsonObject{{"id", info.id},           {"name", info.displayName}, {"family", info.family},
                       {"summary", info.summary}, {"trains", info.trains},    {"keys", keysOf(info.params)},
                       {"reads_xp", info.readsSubviewRows}};
  }
  return out;
}

QJsonArray runKeyList() { return keysOf(runSettingSpecs()); }

QString taskTruths(const QString& task, QVariantMap keys, int seed, QJsonArray* out) {
  const TaskInfo* info = findTask(task);
  if (!info) return unknownTaskError(task);
  if (const QString err = validateTaskParams(*info, &keys); !err.isEmpty()) return err;
  const std::unique_ptr<TaskModel> model = buildTask(task, keys, static_cast<std::uint64_t>(seed));
  if (!model) return unknownTaskError(task);
  const QList<NamedValue> truths = model->truths();
  for (const NamedValue& v : truths) *out << QJsonArray{v.name, v.value};
  // A Monte Carlo truth (bmi's mixtures) after the values, its standard error by the total's name.
  if (model->totalMiStandardError() > 0 && !truths.isEmpty())
    *out << QJsonArray{truths.first().name + " standard error", model->totalMiStandardError()};
  return {};
}

QString sampleRows(const QString& task, QVariantMap keys, qint64 samples, int seed, SampleTable* out) {
  const TaskInfo* info = findTask(task);
  if (!info) return unknownTaskError(task);
  if (info->dataset) return QStringLiteral("task: '%1' is a table, not a law; it has no rows to draw").arg(task);
  if (samples < 2 || samples > kMaxSampleValues)
    return QStringLiteral("n: must be an integer in [2, %1], got %2").arg(kMaxSampleValues).arg(samples);
  if (seed < 0) return QStringLiteral("seed: must be an integer in [0, 2147483647], got %1").arg(seed);
  if (const QString err = validateTaskParams(*info, &keys); !err.isEmpty()) return err;
  return drawSampleTable(task, keys, samples, seed, out);
}

}  // namespace milab
