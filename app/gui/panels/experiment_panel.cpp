#include "gui/panels/experiment_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "gui/panels/param_form.h"
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
      error_(new QLabel(this)),
      methodSummary_(new QLabel(this)),
      run_(new QPushButton(tr("Run"), this)),
      stop_(new QPushButton(tr("Stop"), this)) {
  task_->setObjectName("taskCombo");
  method_->setObjectName("methodCombo");
  run_->setObjectName("runButton");
  stop_->setObjectName("stopButton");
  error_->setObjectName("panelError");
  error_->setStyleSheet("color: #c0392b;");
  error_->setWordWrap(true);
  error_->hide();
  methodSummary_->setWordWrap(true);
  methodSummary_->setStyleSheet("color: #555;");
  for (const TaskInfo& t : availableTasks()) task_->addItem(t.displayName, t.id);
  for (const MethodPlugin* m : registry_.methods()) {
    const MethodInfo info = m->info();
    method_->addItem(info.displayName, info.id);
  }
  settingsForm_->setSpecs(runSettingSpecs());

  auto* taskBox = new QGroupBox(tr("Task"), this);
  auto* taskLayout = new QVBoxLayout(taskBox);
  taskLayout->addWidget(task_);
  taskLayout->addWidget(taskForm_);
  auto* methodBox = new QGroupBox(tr("Method"), this);
  auto* methodLayout = new QVBoxLayout(methodBox);
  methodLayout->addWidget(method_);
  methodLayout->addWidget(methodSummary_);
  methodLayout->addWidget(methodForm_);
  auto* settingsBox = new QGroupBox(tr("Run"), this);
  auto* settingsLayout = new QVBoxLayout(settingsBox);
  settingsLayout->addWidget(settingsForm_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(run_);
  buttons->addWidget(stop_);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(taskBox);
  layout->addWidget(methodBox);
  layout->addWidget(settingsBox);
  layout->addLayout(buttons);
  layout->addWidget(error_);
  layout->addStretch(1);

  connect(task_, &QComboBox::currentIndexChanged, this, &ExperimentPanel::onTaskChanged);
  connect(method_, &QComboBox::currentIndexChanged, this, &ExperimentPanel::onMethodChanged);
  connect(run_, &QPushButton::clicked, this, &ExperimentPanel::runRequested);
  connect(stop_, &QPushButton::clicked, this, &ExperimentPanel::stopRequested);
  onTaskChanged();
  onMethodChanged();
  setSpec(RunSpec{});  // a valid experiment from the start: RunSpec's defaults (DEMI on gaussian3)
  setRunning(false);
}

void ExperimentPanel::onTaskChanged() {
  if (const TaskInfo* t = findTask(task_->currentData().toString())) taskForm_->setSpecs(t->params);
}

void ExperimentPanel::onMethodChanged() {
  const MethodPlugin* m = registry_.find(method_->currentData().toString());
  methodForm_->setSpecs(m ? m->info().params : ParamSpecs{});
  methodSummary_->setText(m ? m->info().summary : tr("No method plugin loaded."));
}

RunSpec ExperimentPanel::spec() const {
  RunSpec s;
  s.task = task_->currentData().toString();
  s.taskParams = taskForm_->values();
  s.method = method_->currentData().toString();
  s.methodParams = methodForm_->values();
  const ParamMap settings = settingsForm_->values();
  s.steps = settings.value("steps").toInt();
  s.seed = settings.value("seed").toInt();
  s.device = settings.value("device").toString();
  s.evalBatches = settings.value("eval_batches").toInt();
  return s;
}

void ExperimentPanel::setSpec(const RunSpec& s) {
  task_->setCurrentIndex(std::max(0, task_->findData(s.task)));
  method_->setCurrentIndex(std::max(0, method_->findData(s.method)));
  taskForm_->setValues(s.taskParams);
  methodForm_->setValues(s.methodParams);
  settingsForm_->setValues(
      {{"steps", s.steps}, {"seed", s.seed}, {"device", s.device}, {"eval_batches", s.evalBatches}});
}

void ExperimentPanel::showError(const QString& line) {
  clearErrors();
  const QString field = line.section(':', 0, 0);
  const QString message = line.section(':', 1).trimmed();
  for (ParamForm* form : {taskForm_, methodForm_, settingsForm_})
    if (form->hasField(field)) return form->showError(field, message);
  error_->setText(line);
  error_->show();
}

void ExperimentPanel::clearErrors() {
  for (ParamForm* form : {taskForm_, methodForm_, settingsForm_}) form->clearErrors();
  error_->hide();
}

void ExperimentPanel::setRunning(bool running) {
  run_->setEnabled(!running);
  stop_->setEnabled(running);
  for (QWidget* w : {static_cast<QWidget*>(task_), static_cast<QWidget*>(method_),
                     static_cast<QWidget*>(taskForm_), static_cast<QWidget*>(methodForm_),
                     static_cast<QWidget*>(settingsForm_)})
    w->setEnabled(!running);
}

}  // namespace milab
