#pragma once
// The dialogue family: conversations of a hidden Markov model (dialogue_law.h) with exact log-ratios, DEMI's
// section 5.3 views x (k utterances), x' (the last of them) and y (the next one).
#include <QObject>

#include "tasks/task.h"

namespace milab {

class DialogueTaskPlugin : public QObject, public TaskPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_TASK_PLUGIN_IID FILE "dialogue.json")
  Q_INTERFACES(milab::TaskPlugin)

 public:
  QList<TaskInfo> tasks() const override;
  QString validate(const TaskInfo& task, ParamMap* params) const override;
  std::unique_ptr<TaskModel> build(const TaskInfo& task, const ParamMap& params, std::uint64_t seed) const override;
};

}  // namespace milab
