#pragma once
// `--task fashion-mnist-views`: the DEMI paper's vision setting (sec. 5.2) on Debian's Fashion-MNIST: two augmented
// views x, y of one training image and a subview x' of x (crop or cutout), labels kept for evaluation.
#include <QMutex>
#include <QObject>
#include <memory>

#include "tasks/task.h"

namespace milab {

struct LabelledImages;

class ImageViewsTaskPlugin : public QObject, public TaskPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_TASK_PLUGIN_IID FILE "fashion-mnist-views.json")
  Q_INTERFACES(milab::TaskPlugin)

 public:
  QList<TaskInfo> tasks() const override;
  QString validate(const TaskInfo& task, ParamMap* params) const override;
  std::unique_ptr<TaskModel> build(const TaskInfo& task, const ParamMap& params, std::uint64_t seed) const override;

 private:
  // The first `trainImages` training images and every test image, read once per size (validation, then every
  // run of a grid).
  QString images(int64_t trainImages, std::shared_ptr<const LabelledImages>* out) const;

  mutable QMutex mutex_;
  mutable int64_t cachedSize_ = 0;
  mutable std::shared_ptr<const LabelledImages> cached_;
};

}  // namespace milab
