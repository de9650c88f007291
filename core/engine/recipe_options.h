#pragma once
// Named recipes: a published protocol as values for the keys a user leaves out. `--recipe bmi` runs the neural
// protocol of the Beyond-Normal benchmark (Czyz et al., NeurIPS 2023; cbg-ethz/bmi, src/bmi/estimators/neural), and
// any one part of it can still be varied by giving its key (`--recipe bmi --lr 0.01`).
#include <QList>
#include <QString>
#include <QVariant>
#include <QVariantMap>

namespace milab {

struct MethodInfo;
struct TaskInfo;

struct RecipeValue {
  QString key;
  QVariant value;
};

// The keys a recipe sets and their values ("bmi", "lab"); empty for "none" or a name that is none of them (the run
// settings' validation names that one).
QList<RecipeValue> recipeValues(const QString& recipe);

// "auto" (the default) is the lab's recipe (bmi's protocol at lr 0.01 with the method's column transform) for a run
// that reads a finite set (samples > 0, or a table), where the lab's own defaults for fresh batches overfit and read
// below the permutation baseline (docs/benchmark.md, "Above the permutation baseline's noise"), and none otherwise.
QString resolvedRecipe(const QString& named, bool finiteSamples);

// The recipe in force for a settings form's values (its recipe, resolved with its samples) on `task`, as the flat
// form applyRecipe reads: {"recipe": name} and, when samples > 0, the user's "samples".
QVariantMap recipeOfSettings(const QVariantMap& settings, const TaskInfo& task);

// Fills `flat` (the flat form: run settings, task and method keys together) with each value of the recipe it
// names under "recipe" (absent: auto; replaced by the resolved name) whose key it lacks, where the run settings or
// `method` declare that key and take the value (bmi's joint critic only where the method offers one). A task that is a
// table keeps all its rows: `samples` is left out for it. held_out = whole only for a method that reads a whole
// held-out part (readsWholeHeldOut); early stopping and report = best only for a bound (lower or upper).
void applyRecipe(const TaskInfo& task, const MethodInfo& method, QVariantMap* flat);

// A recipe fills run settings per method (the lab's transform is the method's own, early stopping and report = best
// only for a bound): when a form showing `shown` (the run settings) changes method from `previous` to `next` on
// `task`, each run setting whose shown value is what the recipe in force gave `previous` (or its default where it
// gave none) becomes what it gives `next` (or the default); a value the user chose is kept. Returns those changes.
QVariantMap recipeSettingsAfterMethodChange(const QVariantMap& shown, const TaskInfo& task, const MethodInfo& previous,
                                            const MethodInfo& next);

}  // namespace milab
