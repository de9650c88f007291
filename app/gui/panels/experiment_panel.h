#pragma once
// Left side of the window: task and method pickers, their generated parameter forms, a chart of the configured
// Gaussians, run settings, the comparison's quick fills (more methods; lists of values), Run/Stop.
#include <QWidget>
#include <memory>

#include "engine/run_spec.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace milab {

// The experiment the window starts on (and the form falls back on): its method is the window's default.
inline constexpr char kDefaultExperiment[] = ":/experiments/default.json";

class MethodRegistry;
class ParamForm;
class TaskChart;

class ExperimentPanel : public QWidget {
  Q_OBJECT
 public:
  ExperimentPanel(const MethodRegistry& registry, QWidget* parent = nullptr);
  ~ExperimentPanel() override;

  RunSpec spec() const;
  void setSpec(const RunSpec& spec);
  // Unticks every method and empties the vary list, which an experiment file opened as the form's run replaces
  // (issue 79: a stale K=32,128 ran silently after a preset). True when there was something to clear.
  bool clearSetChoices();
  // A user's table as the task (`tableKeys`: its file and columns), every row read, the method and its keys kept
  // where the table can run them; the lab's recipe comes into force as it does for a finite set in the runner.
  void openTable(const ParamMap& tableKeys);
  // The comparison's quick fills: methods ticked besides the form's own, and "key=v1,v2; key2=..." lists.
  QStringList comparedMethods() const;
  QString varyText() const;
  void setVaryText(const QString& text);
  // Puts an error line ("<field>: ...") on the field it names, or under the buttons when no field matches.
  void showError(const QString& line);
  void clearErrors();
  // Runs of the set train (`formOpen`: the form and Run stay usable, and Run adds to the set), or a background
  // experiment does (a grid, a sweep, hashing: the form shows what runs, greyed); Stop is enabled either way.
  void setRunning(bool running, bool formOpen = false);
  bool running() const;  // between setRunning(true) and the window showing the end
  // A line above the form saying what runs (a grid, a sweep) while the form shows it; "" hides it.
  void setBanner(const QString& line);
  // Run and Stop, for the window to pin below the scrolling form (always in view, at 1366 x 768 too). Ctrl+R
  // presses Run; Esc and Ctrl+. press Stop, anywhere in the window.
  QWidget* actionBar() const { return actionBar_; }

 Q_SIGNALS:
  void runRequested();
  void stopRequested();
  void specEdited();  // any field of the configuration changed

 private:
  void onTaskChanged();
  void onMethodChanged();
  void updateTaskChart();
  void showTaskError(const QString& line);  // "" hides it
  void updateCompareList();
  void showTicked();
  // The method keys the recipe in force puts for `info` (none under recipe none).
  ParamMap recipeMethodValues(const MethodInfo& info) const;
  // After a method switch: the keys the user had set that the new method shares, kept; the others named.
  void carryTypedKeys(const ParamMap& typed, const QString& from);
  void followRecipe();    // a recipe picked in the settings puts its values in the forms (engine/recipe_options.h)
  void followSchedule();  // a staircase sets steps; the field says so  // names the ticked methods under the list

  const MethodRegistry& registry_;
  QString appliedRecipe_ = "none", recipeMethod_;  // the recipe last written into the forms, for which method
  // True while setSpec fills the forms: a spec already holds its recipe's values and the user's own, and the
  // recipe must not be written over them as the fields change one by one (samples before eval_every, say).
  bool settingSpec_ = false;
  QComboBox* task_;
  QComboBox* method_;
  ParamForm* taskForm_;
  ParamForm* methodForm_;
  ParamForm* settingsForm_;
  std::unique_ptr<TaskChart> taskChart_;
  QListWidget* compareMethods_;
  QLabel* compareTicked_;  // the ticks named below the list: a tick scrolled out of view still adds runs
  QLineEdit* vary_;
  QLabel* varyError_;
  QLabel* taskError_;  // what is wrong with the task's data set (a corrupt file), which has no field of its own
  QLabel* error_;
  QLabel* banner_;
  QLabel* methodSummary_;
  QLabel* methodKeysNote_;  // what a method switch kept, dropped or saw the recipe set
  QPushButton* run_;
  QPushButton* stop_;
  QWidget* actionBar_;
};

}  // namespace milab
