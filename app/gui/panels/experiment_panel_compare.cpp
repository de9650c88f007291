// ExperimentPanel's Compare box: the methods ticked to run beside the form's, the ones the task or the form's
// method sets aside, and the vary list.
#include <QLineEdit>
#include <QListWidget>

#include "gui/docs_pages.h"
#include "gui/panels/experiment_panel.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

namespace milab {

// A method the task cannot run (it needs x' and the true p(y|x'), which the task lacks) cannot be ticked, and says
// why; the form's own method is run anyway and is not listed twice.
void ExperimentPanel::updateCompareList() {
  const TaskInfo* task = findTask(task_->currentData().toString());
  for (int i = 0; i < compareMethods_->count(); ++i) {
    QListWidgetItem* item = compareMethods_->item(i);
    const MethodPlugin* m = registry_.find(item->data(Qt::UserRole).toString());
    const bool own = item->data(Qt::UserRole) == method_->currentData();
    const QString why = !m ? tr("not loaded") : !task ? tr("no task") : methodTaskMismatch(m->info(), {}, *task);
    const bool runnable = why.isEmpty();
    // A tick the task or the method above sets aside is kept, greyed, and comes back with a task or method that
    // allows it (issue 79: ticks vanished after a method switch or a grid).
    item->setFlags(runnable && !own ? Qt::ItemIsUserCheckable | Qt::ItemIsEnabled : Qt::ItemIsUserCheckable);
    item->setToolTip(own        ? tr("the method chosen above")
                     : runnable ? methodToolTip(m->info().id, m->info().summary)
                                : why);
  }
  showTicked();
}

void ExperimentPanel::showTicked() {
  error_->hide();  // a ticked method's refusal (under the buttons) is about the ticks that were
  const QStringList ticked = comparedMethods();
  QStringList aside;
  for (int i = 0; i < compareMethods_->count(); ++i) {
    const QListWidgetItem* item = compareMethods_->item(i);
    if (item->checkState() == Qt::Checked && !(item->flags() & Qt::ItemIsEnabled))
      aside << item->data(Qt::UserRole).toString();
  }
  QString text = ticked.isEmpty() ? tr("ticked: none (the method above runs alone)")
                                  : tr("ticked: %1").arg(ticked.join(", "));
  if (!aside.isEmpty())
    text += tr("; set aside: %1 (the method above, or one the task cannot run)").arg(aside.join(", "));
  compareTicked_->setText(text);
}

QStringList ExperimentPanel::comparedMethods() const {
  QStringList out;
  for (int i = 0; i < compareMethods_->count(); ++i) {
    const QListWidgetItem* item = compareMethods_->item(i);
    if (item->checkState() == Qt::Checked && (item->flags() & Qt::ItemIsEnabled))
      out << item->data(Qt::UserRole).toString();
  }
  return out;
}

bool ExperimentPanel::clearSetChoices() {
  bool cleared = !vary_->text().trimmed().isEmpty();
  vary_->clear();
  for (int i = 0; i < compareMethods_->count(); ++i) {
    cleared = cleared || compareMethods_->item(i)->checkState() == Qt::Checked;
    compareMethods_->item(i)->setCheckState(Qt::Unchecked);
  }
  showTicked();
  return cleared;
}

QString ExperimentPanel::varyText() const { return vary_->text(); }

}  // namespace milab
