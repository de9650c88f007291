// ExperimentPanel's refusals where the user sees them: on the field a line names, the vary list's own line, what
// is wrong with the task's data set under the task box, or the panel's line for the rest.
#include <QLabel>

#include "gui/panels/experiment_panel.h"
#include "gui/panels/param_form.h"

namespace milab {

void ExperimentPanel::showTaskError(const QString& line) {
  taskError_->setText(line);
  taskError_->setToolTip(line);
  taskError_->setVisible(!line.isEmpty());
}

void ExperimentPanel::showError(const QString& line) {
  clearErrors();
  const QString field = line.section(':', 0, 0);
  const QString message = line.section(':', 1).trimmed();
  for (ParamForm* form : {taskForm_, methodForm_, settingsForm_})
    if (form->hasField(field)) return form->showError(field, message);
  if (field == "dataset") return showTaskError(line);
  if (field == "vary") {
    varyError_->setText(message);
    varyError_->show();
    return;
  }
  error_->setText(line);
  error_->show();
}

void ExperimentPanel::clearErrors() {
  for (ParamForm* form : {taskForm_, methodForm_, settingsForm_}) form->clearErrors();
  varyError_->hide();
  error_->hide();
}

}  // namespace milab
