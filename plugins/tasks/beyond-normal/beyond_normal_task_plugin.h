#pragma once
// The Beyond-Normal benchmark (Czyz et al., NeurIPS 2023; cbg-ethz/bmi) by bmi's own 40 task ids, any variant of
// its families an id can name (student-identity-4-4-5), and task `beyond-normal`, the same families made with keys
// (base, dim_x, dim_y, its parameters, a transform chain): each with its exact I(x;y), samples only.
#include <QObject>

#include "tasks/task.h"

namespace milab {

class BeyondNormalTaskPlugin : public QObject, public TaskPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_TASK_PLUGIN_IID FILE "beyond-normal.json")
  Q_INTERFACES(milab::TaskPlugin)

 public:
  QList<TaskInfo> tasks() const override;
  std::optional<TaskInfo> variant(const QString& id, QString* error) const override;
  QString validate(const TaskInfo& task, ParamMap* params) const override;
  std::unique_ptr<TaskModel> build(const TaskInfo& task, const ParamMap& params, std::uint64_t seed) const override;
};

}  // namespace milab
