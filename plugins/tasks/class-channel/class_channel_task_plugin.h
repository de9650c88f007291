#pragma once
// `--task class-channel-images` and `--task class-channel-text`: Lee and Rhee's class channel (class_channel.h) on
// Fashion-MNIST's images and on the texts of Debian's fortunes corpus, each with its exact I(x;y).
#include <QMap>
#include <QMutex>
#include <QObject>
#include <memory>

#include "class_channel_options.h"
#include "tasks/task.h"

namespace milab {

struct ClassPools;

class ClassChannelTaskPlugin : public QObject, public TaskPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_TASK_PLUGIN_IID FILE "class-channel.json")
  Q_INTERFACES(milab::TaskPlugin)

 public:
  QList<TaskInfo> tasks() const override;
  QString validate(const TaskInfo& task, ParamMap* params) const override;
  std::unique_ptr<TaskModel> build(const TaskInfo& task, const ParamMap& params, std::uint64_t seed) const override;

 private:
  // The options of validated keys and the pools they name, each set of pools read once (validation, then every run
  // of a grid). "" or one line.
  QString resolve(const TaskInfo& task, const ParamMap& params, ClassChannelOptions* options,
                  std::shared_ptr<const ClassPools>* pools) const;

  mutable QMutex mutex_;
  mutable QMap<QString, std::shared_ptr<const ClassPools>> cached_;
};

}  // namespace milab
