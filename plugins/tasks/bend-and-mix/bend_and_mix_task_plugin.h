#pragma once
// bmi's Bend and Mix tasks (bend_and_mix.h) by their ids, the 13 of its second suite listed and any variant of their
// families read; each truth a Monte Carlo estimate with its standard error.
#include <QObject>

#include "tasks/task.h"

namespace milab {

class BendAndMixTaskPlugin : public QObject, public TaskPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_TASK_PLUGIN_IID FILE "bend-and-mix.json")
  Q_INTERFACES(milab::TaskPlugin)

 public:
  QList<TaskInfo> tasks() const override;
  std::optional<TaskInfo> variant(const QString& id, QString* error) const override;
  std::unique_ptr<TaskModel> build(const TaskInfo& task, const ParamMap& params, std::uint64_t seed) const override;
};

}  // namespace milab
