#include "gui/panels/experiment_panel.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QShortcut>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <limits>

#include "engine/experiment.h"
#include "engine/recipe_options.h"
#include "engine/staircase.h"
#include "gui/docs_pages.h"
#include "gui/panels/param_form.h"
#include "gui/panels/task_chart.h"
#include "gui/panels/wheel_guard.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

namespace milab {

ExperimentPanel::ExperimentPanel(const MethodRegistry& registry, QWidget* parent)
    : QWidget(parent),
      registry_(registry),
      task_(new QComboBox(this)),
      method_(new QComboBox(this)),
      taskForm_(new ParamForm(this)),
      methodForm_(new ParamForm(this)),
      settingsForm_(new ParamForm(this)),
      taskChart_(std::make_unique<TaskChart>(this)),
      compareMethods_(new QListWidget(this)),
      compareTicked_(new QLabel(this)),
      vary_(new QLineEdit(this)),
      varyError_(new QLabel(this)),
      taskError_(new QLabel(this)),
      error_(new QLabel(this)),
      banner_(new QLabel(this)),
      methodSummary_(new QLabel(this)),
      methodKeysNote_(new QLabel(this)),
      run_(new QPushButton(tr("Run"), this)),
      stop_(new QPushButton(tr("Stop"), this)),
      actionBar_(new QWidget(this)) {
  task_->setObjectName("taskCombo");
  takeWheelOnlyWhenFocused(task_);
  takeWheelOnlyWhenFocused(method_);
  method_->setObjectName("methodCombo");
  run_->setObjectName("runButton");
  stop_->setObjectName("stopButton");
  error_->setObjectName("panelError");
  error_->setStyleSheet("color: #c0392b;");
  error_->setWordWrap(true);
  error_->hide();
  methodSummary_->setWordWrap(true);
  methodSummary_->setStyleSheet("color: #555;");
  methodKeysNote_->setObjectName("methodKeysNote");
  methodKeysNote_->setWordWrap(true);
  methodKeysNote_->setStyleSheet("color: #555;");
  methodKeysNote_->hide();
  for (const TaskInfo& t : availableTasks()) task_->addItem(t.displayName, t.id);
  for (const MethodPlugin* m : registry_.methods()) {
    const MethodInfo info = m->info();
    method_->addItem(info.displayName, info.id);
  }
  settingsForm_->setSpecs(runSettingSpecs());
  compareMethods_->setObjectName("compareMethods");
  compareMethods_->setMaximumHeight(110);
  compareMethods_->setToolTip(
      tr("Tick methods to run beside the one above, with the same settings where they share them"));
  for (const MethodPlugin* m : registry_.methods()) {
    auto* item = new QListWidgetItem(m->info().id, compareMethods_);
    item->setData(Qt::UserRole, m->info().id);
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    item->setCheckState(Qt::Unchecked);
  }
  compareTicked_->setObjectName("compareTicked");
  compareTicked_->setWordWrap(true);
  compareTicked_->setStyleSheet("color: #555;");
  vary_->setObjectName("varyEdit");
  vary_->setPlaceholderText(tr("e.g. K=32,128,512; seed=1,2,3"));
  vary_->setToolTip(
      tr("Lists of values, crossed: one run per combination (seeds of one configuration are drawn as "
         "their mean with a min-max band)"));
  varyError_->setObjectName("error.vary");
  varyError_->setStyleSheet("color: #c0392b;");
  varyError_->setWordWrap(true);
  varyError_->hide();

  taskError_->setObjectName("error.task");
  taskError_->setStyleSheet("color: #c0392b;");
  taskError_->setWordWrap(true);
  taskError_->hide();

  auto* taskBox = new QGroupBox(tr("Task"), this);
  auto* taskLayout = new QVBoxLayout(taskBox);
  taskLayout->addWidget(task_);
  taskLayout->addWidget(taskError_);
  taskLayout->addWidget(taskForm_);
  taskLayout->addWidget(taskChart_->widget());
  taskLayout->addWidget(taskChart_->pairPicker());
  taskLayout->addWidget(taskChart_->viewStrip());
  auto* methodBox = new QGroupBox(tr("Method"), this);
  auto* methodLayout = new QVBoxLayout(methodBox);
  methodLayout->addWidget(method_);
  methodLayout->addWidget(methodSummary_);
  methodLayout->addWidget(methodKeysNote_);
  methodLayout->addWidget(methodForm_);
  auto* settingsBox = new QGroupBox(tr("Run"), this);
  auto* settingsLayout = new QVBoxLayout(settingsBox);
  settingsLayout->addWidget(settingsForm_);
  auto* compareBox = new QGroupBox(tr("Compare"), this);
  auto* compareLayout = new QFormLayout(compareBox);
  auto* tickedCell = new QWidget(this);
  auto* tickedColumn = new QVBoxLayout(tickedCell);
  tickedColumn->setContentsMargins(0, 0, 0, 0);
  tickedColumn->addWidget(compareMethods_);
  tickedColumn->addWidget(compareTicked_);
  compareLayout->addRow(tr("also run"), tickedCell);
  auto* varyCell = new QWidget(this);
  auto* varyColumn = new QVBoxLayout(varyCell);
  varyColumn->setContentsMargins(0, 0, 0, 0);
  varyColumn->addWidget(vary_);
  varyColumn->addWidget(varyError_);
  compareLayout->addRow(tr("vary"), varyCell);
  actionBar_->setObjectName("actionBar");
  auto* buttons = new QHBoxLayout(actionBar_);
  buttons->setContentsMargins(6, 4, 6, 4);
  buttons->addWidget(run_);
  buttons->addWidget(stop_);
  run_->setToolTip(tr("Run the experiment above (Ctrl+R)"));
  stop_->setToolTip(tr("Stop what runs; what ended stays saved (Esc or Ctrl+.)"));
  // Window-wide, and only while the button could be clicked: a shortcut never does what the button would not.
  const auto press = [](QPushButton* button) {
    return [button] {
      if (button->isEnabled()) button->click();
    };
  };
  connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_R), this), &QShortcut::activated, this, press(run_));
  for (const QKeySequence& keys : {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_Period)})
    connect(new QShortcut(keys, this), &QShortcut::activated, this, press(stop_));

  banner_->setObjectName("panelBanner");
  banner_->setWordWrap(true);
  banner_->setStyleSheet("background: #fdf2d0; padding: 4px;");
  banner_->hide();
  auto* layout = new QVBoxLayout(this);
  // The panel is never shorter than its rows need: the scroll area scrolls it rather than squeezing every field to a
  // few pixels (it did at 1280 x 720 once the method form grew).
  layout->setSizeConstraint(QLayout::SetMinimumSize);
  layout->addWidget(banner_);
  layout->addWidget(taskBox);
  layout->addWidget(methodBox);
  layout->addWidget(settingsBox);
  layout->addWidget(compareBox);
  layout->addWidget(actionBar_);  // until the window pins it below the scrolling form
  layout->addWidget(error_);
  layout->addStretch(1);

  connect(task_, &QComboBox::currentIndexChanged, this, &ExperimentPanel::onTaskChanged);
  connect(method_, &QComboBox::currentIndexChanged, this, &ExperimentPanel::onMethodChanged);
  for (ParamForm* form : {taskForm_, methodForm_, settingsForm_})
    connect(form, &ParamForm::edited, this, &ExperimentPanel::specEdited);
  connect(taskForm_, &ParamForm::edited, this, &ExperimentPanel::updateTaskChart);
  connect(taskForm_, &ParamForm::edited, this, &ExperimentPanel::followSchedule);
  connect(settingsForm_, &ParamForm::edited, this, &ExperimentPanel::updateTaskChart);
  connect(settingsForm_, &ParamForm::edited, this, &ExperimentPanel::followRecipe);
  connect(vary_, &QLineEdit::textChanged, this, [this] { varyError_->hide(); });
  connect(compareMethods_, &QListWidget::itemChanged, this, &ExperimentPanel::showTicked);
  connect(run_, &QPushButton::clicked, this, &ExperimentPanel::runRequested);
  connect(stop_, &QPushButton::clicked, this, &ExperimentPanel::stopRequested);
  onTaskChanged();
  onMethodChanged();
  // A valid experiment from the start: the window's default experiment (core has no favourite method), else the
  // plugins' default task with the first method.
  RunSpec start;
  Experiment preset;
  if (readExperiment(kDefaultExperiment, &preset).isEmpty()) {
    QVariantMap flat = preset.base;
    if (!preset.methods.isEmpty()) flat.insert(preset.methods.first());
    if (!runSpecFromFlat(flat, registry_, &start).isEmpty()) start = RunSpec();
  }
  if (start.task.isEmpty()) start.task = defaultTaskId();
  if (start.method.isEmpty() && !registry_.ids().isEmpty()) start.method = registry_.ids().first();
  setSpec(start);
  setRunning(false);
}

ExperimentPanel::~ExperimentPanel() = default;

void ExperimentPanel::onTaskChanged() {
  clearErrors();  // an error about the last configuration no longer applies
  if (const TaskInfo* t = findTask(task_->currentData().toString())) {
    // dim, mi and the other keys both tasks declare keep their values when the new task accepts them.
    const ParamMap before = taskForm_->values();
    taskForm_->setSpecs(t->params);
    ParamMap kept;
    for (auto it = before.cbegin(); it != before.cend(); ++it)
      if (const ParamSpec* spec = findSpec(t->params, it.key())) {
        QVariant value;
        if (checkParam(*spec, it.value(), &value).isEmpty()) kept.insert(it.key(), value);
      }
    taskForm_->setValues(kept);
    // Methods this task cannot run are offered greyed out, with the reason.
    auto* model = qobject_cast<QStandardItemModel*>(method_->model());
    for (int i = 0; model && i < method_->count(); ++i) {
      const MethodPlugin* m = registry_.find(method_->itemData(i).toString());
      const QString why = m ? methodTaskMismatch(m->info(), {}, *t) : tr("not loaded");
      model->item(i)->setEnabled(why.isEmpty());
      model->item(i)->setToolTip(why.isEmpty() ? methodToolTip(m->info().id, m->info().summary) : why);
    }
    // A method the new task cannot run gives way to infonce where it can run, else to the first one that can
    // (an image task: the vision family).
    if (model && !model->item(method_->currentIndex())->isEnabled()) {
      int pick = method_->findData("infonce");
      if (pick >= 0 && !model->item(pick)->isEnabled()) pick = -1;
      for (int i = 0; pick < 0 && i < method_->count(); ++i)
        if (model->item(i)->isEnabled()) pick = i;
      if (pick >= 0) method_->setCurrentIndex(pick);
    }
  }
  followRecipe();  // a table is a finite set: auto's recipe comes into force
  updateCompareList();
  updateTaskChart();
  followSchedule();
  Q_EMIT specEdited();
}

void ExperimentPanel::onMethodChanged() {
  clearErrors();
  // The user's own values: those neither the old method's default nor what the recipe put for it. A key the new
  // method shares keeps its value (K = 32 stays 32 from demi to demi-bo); a default of the old method is not typed,
  // and gives way to the new method's own.
  ParamMap typed;
  const MethodPlugin* previous = settingSpec_ ? nullptr : registry_.find(recipeMethod_);
  if (previous) {
    const ParamMap before = methodForm_->values(), defaults = defaultsOf(methodForm_->specs()),
                   recipe = recipeMethodValues(previous->info());
    for (auto it = before.cbegin(); it != before.cend(); ++it)
      if (it.value() != defaults.value(it.key()) && it.value() != recipe.value(it.key(), defaults.value(it.key())))
        typed.insert(it.key(), it.value());
  }
  const MethodPlugin* m = registry_.find(method_->currentData().toString());
  methodForm_->setSpecs(m ? m->info().params : ParamSpecs{});
  methodSummary_->setText(m ? m->info().summary : tr("No method plugin loaded."));
  methodSummary_->setToolTip(m ? methodToolTip(m->info().id, m->info().summary) : QString());
  updateCompareList();
  carryTypedKeys(typed, previous ? previous->info().id : QString());
  Q_EMIT specEdited();
}

// A staircase decides the run's length: the steps field shows levels x steps_per_level, greyed, until the
// schedule is emptied (a task without one never locks it).
void ExperimentPanel::followSchedule() {
  const MiSchedule schedule = scheduleOf(taskForm_->values());
  const int levels = int(schedule.levels.size()), perLevel = schedule.stepsPerLevel;
  if (schedule.isSet() && qint64(levels) * perLevel <= std::numeric_limits<int>::max()) {
    settingsForm_->setValues({{"steps", levels * perLevel}});
    settingsForm_->setFieldLocked(
        "steps", tr("the staircase sets it: %1 levels x %2 steps per level").arg(levels).arg(perLevel));
  } else {
    settingsForm_->setFieldLocked("steps", {});
  }
}

void ExperimentPanel::updateTaskChart() {
  const int seed = settingsForm_->values().value("seed").toInt();
  const QString err = taskChart_->show(task_->currentData().toString(), taskForm_->values(), seed);
  // A field's own error shows on its field when Run is pressed; the data set's has none, so it shows at once.
  showTaskError(err.section(':', 0, 0) == QLatin1String("dataset") ? err : QString());
}

RunSpec ExperimentPanel::spec() const {
  RunSpec s;
  s.task = task_->currentData().toString();
  s.taskParams = taskForm_->values();
  s.method = method_->currentData().toString();
  s.methodParams = methodForm_->values();
  // Copied as they are, not checked here: validateRunSpec names a bad one on its field.
  readRunSettings(settingsForm_->values(), &s);
  return s;
}

void ExperimentPanel::setSpec(const RunSpec& s) {
  const QScopedValueRollback<bool> filling(settingSpec_, true);
  methodKeysNote_->hide();  // a spec is the whole configuration: nothing was carried
  int taskIndex = task_->findData(s.task);
  // A variant read from its id (student-identity-4-3-5, 7v1-concentric_gaussians-3) is not in the list: it joins
  // it, rather than the form falling back to the first task.
  if (const TaskInfo* variant = taskIndex < 0 ? findTask(s.task) : nullptr) {
    task_->addItem(variant->displayName, variant->id);
    taskIndex = task_->count() - 1;
  }
  task_->setCurrentIndex(std::max(0, taskIndex));
  method_->setCurrentIndex(std::max(0, method_->findData(s.method)));
  // A spec is the whole configuration: what it leaves out takes its default, not the previous task's value.
  ParamMap taskParams = taskForm_->specs().isEmpty() ? ParamMap() : defaultsOf(taskForm_->specs());
  taskParams.insert(s.taskParams);
  taskForm_->setValues(taskParams);
  ParamMap methodParams = defaultsOf(methodForm_->specs());
  methodParams.insert(s.methodParams);
  methodForm_->setValues(methodParams);
  // A validated spec holds its recipe resolved: the default experiment's auto became none on fresh batches, and the
  // form then kept none when samples were set (issue 79). A recipe that auto would choose shows as auto, so that the
  // lab's recipe comes into force once the run reads a finite set, as it does in the runner.
  const TaskInfo* task = findTask(s.task);
  const bool finite = s.finiteSamples() || (task && task->dataset);
  ParamMap settings = runSettingsOf(s);
  if (s.recipe == resolvedRecipe(RunSpec::kRecipeKeyDefault, finite))
    settings.insert("recipe", QString(RunSpec::kRecipeKeyDefault));
  settingsForm_->setValues(settings);
  // The spec's values already hold its recipe and the user's own changes to it.
  appliedRecipe_ = resolvedRecipe(s.recipe, finite);
  recipeMethod_ = s.method;
  followSchedule();
}

void ExperimentPanel::openTable(const ParamMap& tableKeys) {
  settingsForm_->setValues({{"samples", 0}});         // every row
  task_->setCurrentIndex(task_->findData("data"));  // onTaskChanged: a method the table runs, the recipe in force
  taskForm_->setValues(tableKeys);
  updateTaskChart();
  Q_EMIT specEdited();
}

void ExperimentPanel::setBanner(const QString& line) {
  banner_->setText(line);
  banner_->setVisible(!line.isEmpty());
}

bool ExperimentPanel::running() const { return stop_->isEnabled(); }

void ExperimentPanel::setRunning(bool running, bool formOpen) {
  const bool greyed = running && !formOpen;
  run_->setEnabled(!greyed);
  stop_->setEnabled(running);
  for (QWidget* w : {static_cast<QWidget*>(task_), static_cast<QWidget*>(method_), static_cast<QWidget*>(taskForm_),
                     static_cast<QWidget*>(methodForm_), static_cast<QWidget*>(settingsForm_),
                     static_cast<QWidget*>(compareMethods_), static_cast<QWidget*>(vary_)})
    w->setEnabled(!greyed);
}

}  // namespace milab
