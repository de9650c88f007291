#pragma once
// The keys the lab reads of any task's settings, whatever its family, read by key in one place
// (shared_task_options.cpp): dim and mi where a family takes its size and its truth from them (the Gaussians; a
// Beyond-Normal id names both instead), and an image task's pool of training images. Torch-free.
#include <QtGlobal>
#include <optional>

#include "params/param_spec.h"

namespace milab {

struct SharedTaskOptions {
  std::optional<int> dim;             // absent where the task's id fixes its sizes (TaskInfo::dimX, dimY)
  std::optional<double> mi;           // the stated total MI; absent where the law states its own
  std::optional<qint64> trainImages;  // an image task's training pool (train_images)
  static SharedTaskOptions from(const ParamMap& taskParams);
};

}  // namespace milab
