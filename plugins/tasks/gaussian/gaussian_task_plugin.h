#pragma once
// The covariate Gaussians of the DEMI paper (sec. 5.1 / A.6): gaussian2 (x, y) and gaussian3 (x, x', y), each with
// its exact MI, conditional MI, PMI and densities. Parameters: dim, mi (at most 5 nats per dimension), gaussian2's
// cubic map, gaussian3's alpha, and the MI staircase's keys.
#include <QObject>

#include "tasks/task.h"

namespace milab {

class GaussianTaskPlugin : public QObject, public TaskPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_TASK_PLUGIN_IID FILE "gaussian.json")
  Q_INTERFACES(milab::TaskPlugin)

 public:
  QList<TaskInfo> tasks() const override;
  QString validate(const TaskInfo& task, ParamMap* params) const override;
  std::unique_ptr<TaskModel> build(const TaskInfo& task, const ParamMap& params, std::uint64_t seed) const override;
};

}  // namespace milab
