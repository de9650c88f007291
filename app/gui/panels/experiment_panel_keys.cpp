// ExperimentPanel's method keys across a method switch and under a recipe: the keys the user set that the new
// method shares are kept, the others named; the recipe in force (engine/recipe_options.h) writes its values for the
// method into the fields, where the user sees and may change each one.
#include <QLabel>

#include "engine/recipe_options.h"
#include "gui/panels/experiment_panel.h"
#include "gui/panels/param_form.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

namespace milab {

void ExperimentPanel::carryTypedKeys(const ParamMap& typed, const QString& from) {
  ParamMap kept;
  QStringList dropped;
  for (auto it = typed.cbegin(); it != typed.cend(); ++it) {
    QVariant value;
    const ParamSpec* spec = findSpec(methodForm_->specs(), it.key());
    if (spec && checkParam(*spec, it.value(), &value).isEmpty())
      kept.insert(it.key(), value);
    else
      dropped << QStringLiteral("%1 = %2").arg(it.key(), it.value().toString());
  }
  followRecipe();  // the new method's recipe values go in for the keys the user left
  // The user's own value wins over the recipe's, as in the runner (applyRecipe): K = 32 typed for infonce stays 32
  // for nwj under the lab's recipe.
  methodForm_->setValues(kept);
  QStringList keptText;
  for (auto it = kept.cbegin(); it != kept.cend(); ++it)
    keptText << QStringLiteral("%1 = %2").arg(it.key(), it.value().toString());
  QStringList parts;
  if (!keptText.isEmpty()) parts << tr("kept %1").arg(keptText.join(", "));
  if (!dropped.isEmpty())
    parts << tr("dropped %1 (not a key of this method, or out of its range)").arg(dropped.join(", "));
  methodKeysNote_->setText(parts.isEmpty() ? QString() : tr("From %1: %2.").arg(from, parts.join("; ")));
  methodKeysNote_->setVisible(!parts.isEmpty());
}

ParamMap ExperimentPanel::recipeMethodValues(const MethodInfo& info) const {
  const TaskInfo* task = findTask(task_->currentData().toString());
  if (!task) return {};
  QVariantMap flat = recipeOfSettings(settingsForm_->values(), *task);
  if (flat.value("recipe").toString() == "none") return {};
  applyRecipe(*task, info, &flat);
  ParamMap out;
  for (auto it = flat.cbegin(); it != flat.cend(); ++it)
    if (it.key() != "recipe" && !findSpec(runSettingSpecs(), it.key())) out.insert(it.key(), it.value());
  return out;
}

// The recipe in force (settings' `recipe`; auto is the lab's once the run reads a finite set) writes its values into
// the fields, where the user sees and may change each one; the run then reads the fields as they are. A new
// method's form gets them again; leaving the recipe puts its keys back to their defaults.
void ExperimentPanel::followRecipe() {
  const TaskInfo* task = findTask(task_->currentData().toString());
  if (!task || settingSpec_) return;
  QVariantMap flat = recipeOfSettings(settingsForm_->values(), *task);
  const QString recipe = flat.value("recipe").toString();
  const QString left = appliedRecipe_;
  const bool picked = recipe != appliedRecipe_;
  appliedRecipe_ = recipe;
  const bool methodChanged = method_->currentData().toString() != recipeMethod_;
  const MethodPlugin* previous = registry_.find(recipeMethod_);
  recipeMethod_ = method_->currentData().toString();
  if (!picked && !methodChanged) return;  // an edit of another field keeps the user's own values
  const MethodPlugin* m = registry_.find(recipeMethod_);
  if (!m) return;
  ParamMap settings, method;
  if (recipe == "none") {
    if (!picked) return;
    const ParamMap settingDefaults = defaultsOf(runSettingSpecs()), methodDefaults = defaultsOf(methodForm_->specs());
    for (const RecipeValue& r : recipeValues(left)) {
      if (r.key == "samples") continue;
      if (settingDefaults.contains(r.key)) settings.insert(r.key, settingDefaults.value(r.key));
      if (methodDefaults.contains(r.key)) method.insert(r.key, methodDefaults.value(r.key));
    }
  } else {
    applyRecipe(*task, m->info(), &flat);
    flat.remove("recipe");  // the field keeps what the user picked (auto)
    for (auto it = flat.cbegin(); it != flat.cend(); ++it)
      (findSpec(runSettingSpecs(), it.key()) ? settings : method).insert(it.key(), it.value());
  }
  if (picked) settingsForm_->setValues(settings);
  // The recipe's run settings are the method's (the lab's transform, early stopping for a bound): a new method takes
  // its own where the user kept the last one's.
  if (!picked && previous)
    settingsForm_->setValues(
        recipeSettingsAfterMethodChange(settingsForm_->values(), *task, previous->info(), m->info()));
  methodForm_->setValues(method);
}

}  // namespace milab
