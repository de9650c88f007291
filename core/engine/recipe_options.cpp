#include "engine/recipe_options.h"

#include "engine/run_settings_options.h"
#include "engine/run_spec.h"
#include "method/method_plugin.h"
#include "tasks/task.h"

namespace milab {

QList<RecipeValue> recipeValues(const QString& recipe) {
  if (recipe == "lab") {
    // bmi's protocol with two changes chosen from measurements (docs/benchmark.md, "bmi's protocol and the lab's
    // recipe" and "The two recipes task by task"): lr 0.01 instead of 0.1, and a column transform before
    // standardisation: asinh, or the method's own (MethodInfo::labRecipeTransform: asinh on heavy tails only for
    // infonce, nwj, mine and the diffusion estimators, which read closer so over the Beyond-Normal suite).
    QList<RecipeValue> values = recipeValues("bmi");
    for (RecipeValue& v : values)
      if (v.key == "lr") v.value = 0.01;
    values << RecipeValue{"transform", "asinh"};
    return values;
  }
  if (recipe != "bmi") return {};
  // bmi's defaults (estimators/neural/_estimators.py and _basic_training.py): 5,000 samples as in the paper's main
  // table, a 50/50 split, batch 256, Adam at lr 0.1, at most 10,000 steps, the test half read every 250 steps and
  // whole, training stopped after two readings in a row without a new best, the best reading reported, the critic
  // an MLP on [x, y] with hidden widths 16, 8, and MINE's moving average at alpha 0.9.
  return {{"samples", 5000},  {"test_fraction", 0.5}, {"steps", 10000}, {"eval_every", 250}, {"early_stopping", true},
          {"report", "best"}, {"held_out", "whole"},  {"K", 256},       {"lr", 0.1},         {"critic", "joint"},
          {"layers", "16,8"}, {"momentum", 0.9}};
}

namespace {
const QStringList kCriticKeys{"K", "lr", "critic", "layers", "momentum", "held_out"};
}  // namespace

QString resolvedRecipe(const QString& named, bool finiteSamples) {
  if (named != RunSpec::kRecipeKeyDefault) return named;
  return finiteSamples ? "lab" : "none";
}

QVariantMap recipeOfSettings(const QVariantMap& settings, const TaskInfo& task) {
  const qint64 samples = settings.value("samples").toLongLong();
  QVariantMap flat{{"recipe", resolvedRecipe(settings.value("recipe").toString(), samples > 0 || task.dataset)}};
  if (samples > 0) flat.insert("samples", samples);  // the user's N stays
  return flat;
}

void applyRecipe(const TaskInfo& task, const MethodInfo& method, QVariantMap* flat) {
  const QString recipe = resolvedRecipe(flat->value("recipe", RunSpec::kRecipeKeyDefault).toString(),
                                        task.dataset || flat->value("samples").toLongLong() > 0);
  flat->insert("recipe", recipe);
  for (const RecipeValue& r : recipeValues(recipe)) {
    if (flat->contains(r.key)) continue;  // the user's own value wins
    if (r.key == "samples" && task.dataset) continue;
    // bmi's protocol trains critics (InfoNCE, NWJ, DV): its critic and optimiser (K, lr, critic, layers, momentum,
    // held_out whole) go to the score-matrix methods only. A density model (DoE, CLUB) or DEMI's classifier keeps its
    // own: at lr 0.1 DoE diverged on multinormal-dense-25-25-0.5 and CLUB read above what its diagonal q can read
    // at best (docs/benchmark.md, "bmi's protocol and the lab's recipe").
    if (kCriticKeys.contains(r.key) && !method.readsWholeHeldOut) continue;
    if (kCriticKeys.contains(r.key) && r.key != "held_out" && method.keepsOwnTraining) continue;
    // A method that reads neither a lower nor an upper bound and has no held-out loss to select by (SMILE, f-DIME) has
    // no better reading to stop at or report.
    if ((r.key == "early_stopping" || r.key == "report") && heldOutSelection(method) == HeldOutSelection::None)
      continue;
    const QVariant value = recipe == "lab" && r.key == "transform" ? QVariant(method.labRecipeTransform) : r.value;
    const ParamSpec* spec = findSpec(runSettingSpecs(), r.key);
    if (!spec) spec = findSpec(method.params, r.key);
    QVariant taken;
    if (spec && checkParam(*spec, value, &taken).isEmpty()) flat->insert(r.key, taken);
  }
}

QVariantMap recipeSettingsAfterMethodChange(const QVariantMap& shown, const TaskInfo& task, const MethodInfo& previous,
                                            const MethodInfo& next) {
  QVariantMap before = recipeOfSettings(shown, task), after = before;
  applyRecipe(task, previous, &before);
  applyRecipe(task, next, &after);
  QVariantMap changes;
  for (const ParamSpec& setting : runSettingSpecs()) {
    if (setting.name == "recipe" || setting.name == "samples") continue;
    const QVariant was = before.value(setting.name, setting.defaultValue),
                   becomes = after.value(setting.name, setting.defaultValue);
    if (shown.value(setting.name) == was && was != becomes) changes.insert(setting.name, becomes);
  }
  return changes;
}

}  // namespace milab
