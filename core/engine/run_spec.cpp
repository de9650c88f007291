#include "engine/run_spec.h"

#include <algorithm>
#include <cmath>

#include "engine/device.h"
#include "engine/reading_params_options.h"
#include "engine/recipe_options.h"
#include "engine/staircase.h"
#include "engine/subsample_spread.h"
#include "method/critic_options.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

// Finds the task and the method a spec names; "" or the error line naming the field.
QString lookUp(const RunSpec& spec, const MethodRegistry& registry, const TaskInfo** task,
               const MethodPlugin** method) {
  *task = findTask(spec.task);
  if (!*task) return unknownTaskError(spec.task);
  *method = registry.find(spec.method);
  if (spec.method.isEmpty()) return QStringLiteral("method: required, one of %1").arg(registry.ids().join('|'));
  if (!*method) return QStringLiteral("method: must be one of %1, got '%2'").arg(registry.ids().join('|'), spec.method);
  return {};
}

}  // namespace

namespace {

// A finite sample set has x' columns at most: no sampler of p(y|x'), no PMI, no density.
TaskInfo withoutLaw(const TaskInfo& task) {
  TaskInfo t = task;
  t.capabilities.subviewRows = t.capabilities.subview;  // its x' rows are drawn with the set
  t.capabilities.subview = t.capabilities.pmi = t.capabilities.densities = false;
  return t;
}

// The finite set's shape: its rows and the task's columns (0 rows when the task cannot be built).
SampleSetShape sampleSetShape(const RunSpec& spec) {
  const std::unique_ptr<TaskModel> model = buildTask(spec.task, spec.taskParams, std::uint64_t(spec.seed));
  if (!model) return {};
  return {spec.samples, model->dimX(), model->dimY(), model->hasSubview()};
}

// The finite set's rows in float, about six copies at the peak: the run's set and its permutation twin, each drawn,
// transformed and standardised (and joined again for a method that reads them all at once).
MemoryNeed sampleSetNeed(const SampleSetShape& set) {
  if (set.rows == 0) return {};
  const double columns = set.dimX + set.dimY + (set.subview ? set.dimX : 0);
  return {2e8 + 6.0 * 4.0 * double(set.rows) * columns, "samples",
          QStringLiteral("%1 rows of %2 columns, drawn, standardised and split").arg(set.rows).arg(columns),
          "draw fewer samples"};
}

// extrapolate's sizes: parts of kFewestPartRows (engine/subsample_spread.h) at N/3 for a method that trains nothing,
// quarters split and trained as N is, each side holding a batch, for a trained critic.
QString checkSizes(const RunSpec& spec, const MethodInfo& info, qint64 batch) {
  if (!spec.extrapolate) return {};
  if (!info.trains) {
    if (spec.samples / 3 >= kFewestPartRows) return {};
    return QStringLiteral(
               "extrapolate: method %1 reads parts of at least %2 rows at N/2 and N/3; samples %3 gives "
               "%4 at N/3 (at least %5 samples, or leave extrapolate off)")
        .arg(info.id)
        .arg(kFewestPartRows)
        .arg(spec.samples)
        .arg(spec.samples / 3)
        .arg(3 * kFewestPartRows);
  }
  const auto holdsBatches = [&](qint64 rows) {
    const qint64 held = std::llround(double(rows) * spec.testFraction);
    return held >= batch && rows - held >= batch;
  };
  const qint64 quarter = spec.samples / 4, quarterHeldOut = std::llround(double(quarter) * spec.testFraction);
  if (holdsBatches(quarter)) return {};
  qint64 fewest = 2 * batch;
  while (!holdsBatches(fewest) && fewest < spec.samples) ++fewest;
  return QStringLiteral(
             "extrapolate: a quarter of samples %1 is %2 rows, %3 training and %4 held-out; method %5 "
             "needs at least one batch of %6 in each (at least %7 samples, or leave extrapolate off)")
      .arg(spec.samples)
      .arg(quarter)
      .arg(quarter - quarterHeldOut)
      .arg(quarterHeldOut)
      .arg(info.id)
      .arg(batch)
      .arg(4 * fewest);
}

// The split must hold a training batch and a held-out batch of the method, and one law: no staircase.
QString checkFiniteSamples(const RunSpec& spec, const MethodPlugin& method) {
  if (scheduleOf(spec.taskParams).isSet())
    return QStringLiteral("samples: a finite sample set is drawn from one law; an MI staircase (mi_schedule) needs "
                          "fresh samples at each level");
  const MethodInfo info = method.info();
  if (info.readsImages)
    return QStringLiteral(
               "samples: method %1 trains on image views drawn afresh from the task's image set, and its probe "
               "reads the task's labelled images; a finite sample set holds vector rows only. Leave samples at 0")
        .arg(info.id);
  if (info.readsTokens)
    return QStringLiteral(
               "samples: method %1 reads token ids, which a finite sample set would standardise and transform into "
               "numbers that name no token; it trains on fresh dialogues. Leave samples at 0")
        .arg(info.id);
  const bool noBetterReading = heldOutSelection(info) == HeldOutSelection::None;
  if (spec.earlyStopping && info.trains && noBetterReading)
    return QStringLiteral("early_stopping: method %1 reads neither a lower nor an upper bound, so no held-out reading "
                          "is a better one; leave it off")
        .arg(info.id);
  if (spec.reportBest && info.trains && noBetterReading)
    return QStringLiteral(
               "report: method %1 reads neither a lower nor an upper bound, so no held-out reading is a "
               "better one; use last")
        .arg(info.id);
  if (spec.heldOutWhole && info.trains && !info.readsWholeHeldOut)
    return QStringLiteral(
               "held_out: method %1 reads its held-out part in batches of its own size; whole is offered "
               "by the score-matrix methods (infonce, nwj, mine, js, smile, tuba, interpolated, local-nce)")
        .arg(info.id);
  const SampleSetShape set = sampleSetShape(spec);
  if (const QString err = refuseIfTooLarge(info.id, sampleSetNeed(set)); !err.isEmpty()) return err;
  if (!info.trains) {
    const QString err = method.validateWholeSet(spec.methodParams, set);  // reads all N at once
    return err.isEmpty() ? checkSizes(spec, info, 0) : err;
  }
  const qint64 heldOut = heldOutRowsOf(spec);
  const qint64 training = spec.samples - heldOut;
  const qint64 batch = method.samplesPerBatch(spec.methodParams);
  if (heldOut < batch || training < batch)
    return QStringLiteral("samples: %1 x test_fraction %2 gives %3 training and %4 held-out rows; method %5 needs "
                          "at least one batch of %6 in each")
        .arg(spec.samples)
        .arg(spec.testFraction)
        .arg(training)
        .arg(heldOut)
        .arg(info.id)
        .arg(batch);
  return checkSizes(spec, info, batch);
}

}  // namespace

QString runSpecFromFlat(const QVariantMap& flat, const MethodRegistry& registry, RunSpec* out) {
  RunSpec spec;
  spec.task = flat.value("task", defaultTaskId()).toString();
  spec.method = flat.value("method", spec.method).toString();
  const TaskInfo* task = nullptr;
  const MethodPlugin* method = nullptr;
  if (const QString err = lookUp(spec, registry, &task, &method); !err.isEmpty()) return err;
  const ParamSpecs methodSpecs = method->info().params;
  QVariantMap filled = flat;
  applyRecipe(*task, method->info(), &filled);  // a recipe's values for the keys left out

  ParamMap settings;
  for (auto it = filled.cbegin(); it != filled.cend(); ++it) {
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

namespace {

// A staircase's length is its levels: steps follows from the schedule (task keys mi_schedule, steps_per_level,
// level_tail). "" or the key at fault; nothing to do without a schedule.
QString applySchedule(RunSpec* spec) {
  const MiSchedule schedule = scheduleOf(spec->taskParams);
  if (!schedule.isSet()) return {};
  const qint64 total = qint64(schedule.levels.size()) * schedule.stepsPerLevel;
  const ParamSpec* stepsSpec = findSpec(runSettingSpecs(), "steps");
  if (total > stepsSpec->maximum)
    return QStringLiteral("steps_per_level: levels x steps_per_level must be at most %1 steps, got %2 x %3")
        .arg(stepsSpec->maximum, 0, 'f', 0)
        .arg(schedule.levels.size())
        .arg(schedule.stepsPerLevel);
  spec->steps = int(total);
  // A tail longer than its level would read the level's warm-up (the steps right after the MI jumped).
  if (schedule.tail > schedule.stepsPerLevel)
    return QStringLiteral("level_tail: at most steps_per_level (%1), the steps of one level; got %2")
        .arg(schedule.stepsPerLevel)
        .arg(schedule.tail);
  return {};
}

}  // namespace

QString validateRunSpec(RunSpec* spec, const MethodRegistry& registry) {
  if (spec->task.isEmpty()) spec->task = defaultTaskId();
  const TaskInfo* task = nullptr;
  const MethodPlugin* method = nullptr;
  QString err = lookUp(*spec, registry, &task, &method);
  if (!err.isEmpty()) return err;
  err = applyRunSettings(runSettingsOf(*spec), spec);
  if (!err.isEmpty()) return err;
  err = validateTaskParams(*task, &spec->taskParams);
  if (!err.isEmpty()) return err;
  if (task->dataset) {  // a table, not a law: always the finite-sample protocol, every row unless fewer are asked
    const std::unique_ptr<TaskModel> model = buildTask(spec->task, spec->taskParams, std::uint64_t(spec->seed));
    const qint64 rows = model ? model->rows() : 0;
    if (spec->samples == 0) spec->samples = int(std::min<qint64>(rows, 100000000));
    if (spec->samples > rows)
      return QStringLiteral("samples: at most the %1 rows of task %2's table, got %3")
          .arg(rows)
          .arg(task->id)
          .arg(spec->samples);
    if (method->info().readsSubviewRows && model && !model->hasSubview())
      return QStringLiteral("xp_columns: method %1 reads x' beside x and y; name the table's x' columns (from 0)")
          .arg(method->info().id);
  }
  if (err = applySchedule(spec); !err.isEmpty()) return err;
  // The record names the recipe in force, as a spec built from a flat map does (applyRecipe): a form's auto is
  // the lab's on a finite set, none on fresh batches.
  spec->recipe = resolvedRecipe(spec->recipe, spec->finiteSamples());
  const MethodInfo info = method->info();
  if (!info.trains && scheduleOf(spec->taskParams).isSet())
    return QStringLiteral("mi_schedule: method %1 trains nothing, so it has no staircase to follow; give one mi")
        .arg(info.id);
  err = validateParamMap(info.params, &spec->methodParams, "method " + info.id);
  if (err.isEmpty()) err = checkCriticLayers(spec->methodParams);
  if (!err.isEmpty()) return err;
  // A method of tokens on its own task is refused a finite set for what the set would do to its ids, before the
  // set's missing law (demi-text's p(y|x')) is named as if the task lacked it.
  if (spec->finiteSamples() && info.readsTokens && methodTaskMismatch(info, spec->methodParams, *task).isEmpty()) {
    if (err = checkFiniteSamples(*spec, *method); !err.isEmpty()) return err;
  }
  err = methodTaskMismatch(info, spec->methodParams, spec->finiteSamples() ? withoutLaw(*task) : *task);
  if (!err.isEmpty()) return spec->finiteSamples() ? err + QStringLiteral(" (with samples: a finite set offers none)")
                                                   : err;
  if (spec->finiteSamples()) {
    err = checkFiniteSamples(*spec, *method);
    if (!err.isEmpty()) return err;
  }
  err = method->validate(spec->methodParams, *task, spec->taskParams);
  if (!err.isEmpty()) return err;
  if (info.trains) err = refuseWithoutRoomToTrain(info.id);  // first: under it every estimate is refused, wrongly named
  if (err.isEmpty()) err = refuseIfTooLarge(info.id, method->memoryNeed(spec->methodParams, *task, spec->taskParams));
  if (!err.isEmpty()) return err;
  if (spec->finiteSamples() && spec->heldOutWhole && info.trains) {  // N_test x N_test scores, no gradient
    const double heldOut = double(heldOutRowsOf(*spec));
    err = refuseIfTooLarge(info.id, {2e8 + 16 * heldOut * heldOut, "held_out",
                                     QStringLiteral("the whole held-out part's %1 x %1 scores").arg(heldOut),
                                     "read it in batches (held_out batches) or hold out fewer rows"});
    if (!err.isEmpty()) return err;
  }
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
  if (spec.finiteSamples()) {  // absent otherwise: experiments written before the protocol existed read the same
    flat.insert("samples", spec.samples);
    flat.insert("test_fraction", spec.testFraction);
    flat.insert("eval_every", spec.evalEvery);
    flat.insert("early_stopping", spec.earlyStopping);
    flat.insert("report", spec.reportBest ? "best" : "last");
    flat.insert("held_out", spec.heldOutWhole ? "whole" : "batches");
    flat.insert("permutations", spec.permutations);
    flat.insert("ci", spec.ci);
    flat.insert("extrapolate", spec.extrapolate);
    flat.insert("transform", spec.transform);
  }
  if (spec.finiteSamples() || spec.recipe != "none") flat.insert("recipe", spec.recipe);
  for (auto it = spec.taskParams.cbegin(); it != spec.taskParams.cend(); ++it) flat.insert(it.key(), it.value());
  for (auto it = spec.methodParams.cbegin(); it != spec.methodParams.cend(); ++it) flat.insert(it.key(), it.value());
  return flat;
}

}  // namespace milab
