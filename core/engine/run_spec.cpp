#include "engine/run_spec.h"

#include "engine/device.h"
#include "engine/staircase.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

namespace milab {

const ParamSpecs& runSettingSpecs() {
  static const ParamSpecs specs = {
      ParamSpec::integer("steps", 3000, 1, 10000000, "training steps"),
      ParamSpec::integer("seed", 1, 0, 2147483647, "seeds the task's construction, the networks and the samples"),
      ParamSpec::choice("device", {"auto", "cpu", "cuda"}, "auto", "auto takes CUDA when available"),
      ParamSpec::integer("eval_batches", 20, 20, 100000,
                         "fresh batches the final estimate averages (its standard error comes from them)"),
  };
  return specs;
}

namespace {

// Finds the task and the method a spec names; "" or the error line naming the field.
QString lookUp(const RunSpec& spec, const MethodRegistry& registry, const TaskInfo** task,
               const MethodPlugin** method) {
  *task = findTask(spec.task);
  if (!*task) return unknownTaskError(spec.task);
  *method = registry.find(spec.method);
  if (!*method) return QStringLiteral("method: must be one of %1, got '%2'").arg(registry.ids().join('|'), spec.method);
  return {};
}

// Checks the run settings, filling the missing ones with their declared defaults.
QString applyRunSettings(const ParamMap& settings, RunSpec* spec) {
  ParamMap checked = settings;
  const QString err = validateParamMap(runSettingSpecs(), &checked, "the run");
  if (!err.isEmpty()) return err;
  spec->steps = checked.value("steps").toInt();
  spec->seed = checked.value("seed").toInt();
  spec->device = checked.value("device").toString();
  spec->evalBatches = checked.value("eval_batches").toInt();
  return {};
}

}  // namespace

QString runSpecFromFlat(const QVariantMap& flat, const MethodRegistry& registry, RunSpec* out) {
  RunSpec spec;
  spec.task = flat.value("task", spec.task).toString();
  spec.method = flat.value("method", spec.method).toString();
  const TaskInfo* task = nullptr;
  const MethodPlugin* method = nullptr;
  if (const QString err = lookUp(spec, registry, &task, &method); !err.isEmpty()) return err;
  const ParamSpecs methodSpecs = method->info().params;

  ParamMap settings;
  for (auto it = flat.cbegin(); it != flat.cend(); ++it) {
    const QString& key = it.key();
    if (key == "task" || key == "method") continue;
    if (findSpec(runSettingSpecs(), key))
      settings.insert(key, it.value());
    else if (findSpec(task->params, key))
      spec.taskParams.insert(key, it.value());
    else if (findSpec(methodSpecs, key))
      spec.methodParams.insert(key, it.value());
    else {
      QStringList allowed{"task", "method"};
      for (const ParamSpecs* specs : {&runSettingSpecs(), &task->params, &methodSpecs})
        for (const ParamSpec& s : *specs) allowed << s.name;
      return QStringLiteral("%1: unknown key for task %2 and method %3 (allowed: %4)")
          .arg(key, spec.task, spec.method, allowed.join(", "));
    }
  }
  const QString err = applyRunSettings(settings, &spec);
  if (!err.isEmpty()) return err;
  *out = spec;
  return validateRunSpec(out, registry);
}

QString validateRunSpec(RunSpec* spec, const MethodRegistry& registry) {
  const TaskInfo* task = nullptr;
  const MethodPlugin* method = nullptr;
  QString err = lookUp(*spec, registry, &task, &method);
  if (!err.isEmpty()) return err;
  err = applyRunSettings(
      {{"steps", spec->steps}, {"seed", spec->seed}, {"device", spec->device}, {"eval_batches", spec->evalBatches}},
      spec);
  if (!err.isEmpty()) return err;
  err = validateTaskParams(*task, &spec->taskParams);
  if (!err.isEmpty()) return err;
  if (const MiSchedule schedule = scheduleOf(spec->taskParams); schedule.isSet()) {
    // A staircase's length is its levels: steps follows from the schedule.
    const qint64 total = qint64(schedule.levels.size()) * schedule.stepsPerLevel;
    const ParamSpec* stepsSpec = findSpec(runSettingSpecs(), "steps");
    if (total > stepsSpec->maximum)
      return QStringLiteral("steps_per_level: levels x steps_per_level must be at most %1 steps, got %2 x %3")
          .arg(stepsSpec->maximum, 0, 'f', 0)
          .arg(schedule.levels.size())
          .arg(schedule.stepsPerLevel);
    spec->steps = int(total);
  }
  const MethodInfo info = method->info();
  if (!info.trains && scheduleOf(spec->taskParams).isSet())
    return QStringLiteral("mi_schedule: method %1 trains nothing, so it has no staircase to follow; give one mi")
        .arg(info.id);
  err = validateParamMap(info.params, &spec->methodParams, "method " + info.id);
  if (!err.isEmpty()) return err;
  err = methodTaskMismatch(info, spec->methodParams, *task);
  if (!err.isEmpty()) return err;
  err = method->validate(spec->methodParams, *task, spec->taskParams);
  if (!err.isEmpty()) return err;
  QString resolved;
  return resolveDevice(spec->device, &resolved);
}

QVariantMap runSpecToFlat(const RunSpec& spec) {
  QVariantMap flat;
  flat.insert("task", spec.task);
  flat.insert("method", spec.method);
  flat.insert("steps", spec.steps);
  flat.insert("seed", spec.seed);
  flat.insert("device", spec.device);
  flat.insert("eval_batches", spec.evalBatches);
  for (auto it = spec.taskParams.cbegin(); it != spec.taskParams.cend(); ++it) flat.insert(it.key(), it.value());
  for (auto it = spec.methodParams.cbegin(); it != spec.methodParams.cend(); ++it) flat.insert(it.key(), it.value());
  return flat;
}

}  // namespace milab
