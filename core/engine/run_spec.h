#pragma once
// What one run is: a task with its parameters, a method with its parameters, and run settings.
// Experiment files and CLI flags use one flat form ({"task": ..., "dim": ..., "method": ..., "K": ...}).
#include <QString>
#include <QVariantMap>

#include "engine/run_settings_options.h"  // the run settings' specs and their reader
#include "params/param_spec.h"

namespace milab {

class MethodRegistry;

struct RunSpec {
  QString task;  // "": the task plugins' default (defaultTaskId in tasks/task_catalog.h), set by validateRunSpec
  ParamMap taskParams;
  QString method;  // required: the experiment file, the form or --method names it (core has no favourite)
  ParamMap methodParams;
  int steps = 3000;
  int seed = 1;
  QString device = "auto";
  int evalBatches = 20;
  // The finite-sample protocol (engine/sample_set.h) when samples > 0: N drawn once, a held-out part of
  // testFraction, a held-out reading every evalEvery steps, training stopped early when asked and it stops improving.
  int samples = 0;
  double testFraction = 0.5;
  int evalEvery = 250;
  bool earlyStopping = false;
  bool reportBest = false;    // report = best: the run reports its best held-out reading, not its last (bmi's)
  bool heldOutWhole = false;  // held_out = whole: the held-out part read at once, not in batches of the method's size
  // The test of independence beside a finite-sample reading (engine/independence_test.h): readings of the final
  // network on the held-out part with its ys permuted (all rows, for a method that trains nothing), each costing one
  // reading. 19 keeps the smallest p-value at 0.05, a test at the 5% level, at a few percent of a trained run's time
  // (KSG's reading is its whole cost, so there it is 19 times more: docs/user-guide.md, "A test of independence").
  int permutations = 19;
  // The level of a finite-sample reading's confidence interval over the data (engine/reading_interval.h).
  double ci = 0.95;
  // The reading extrapolated to infinite N from its sizes N, N/2, N/4 (engine/size_extrapolation.h): free for a
  // method that trains nothing, six more trainings on the halves and quarters for a trained critic, so off.
  bool extrapolate = false;
  // The named recipe (engine/recipe_options.h) whose values filled the keys the user left out: "none" or "bmi".
  QString recipe = "none";
  // The `recipe` key's default, resolved before a RunSpec holds it (engine/recipe_options.h: resolvedRecipe).
  static constexpr const char* kRecipeKeyDefault = "auto";
  // A map applied to each column of a finite set before its standardisation: "none", "asinh", or "ranks" (each
  // value replaced by the standard normal quantile of its rank). Invertible per column, so the MI is unchanged.
  QString transform = "none";
  bool finiteSamples() const { return samples > 0; }
};

// Builds and validates a spec from the flat form. Every key must be a run setting, "task", "method", or a
// parameter the chosen task or method declares. Returns "" or one line naming the field and what is allowed.
QString runSpecFromFlat(const QVariantMap& flat, const MethodRegistry& registry, RunSpec* out);

// Validates and normalises in place (defaults filled, canonical types, method cross-checks, device).
QString validateRunSpec(RunSpec* spec, const MethodRegistry& registry);

QVariantMap runSpecToFlat(const RunSpec& spec);

}  // namespace milab
