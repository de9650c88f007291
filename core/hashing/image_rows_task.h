#pragma once
// The hashing experiment's law: a row drawn uniformly (with replacement) from a fixed set of images, seen as both x
// and y (X = Y, the AMMI paper's unsupervised hashing). Not a task plugin: nothing but the hashing experiment
// trains on it, and it knows no truth (I(x;y) = H(y) of a discrete set, which no estimator here reads).
// Torch header: core translation units only.
#include <ATen/core/Tensor.h>

#include "tasks/task.h"
#include "tasks/task_sampler.h"

namespace milab {

class ImageRowsTask final : public TaskModel {
 public:
  explicit ImageRowsTask(at::Tensor images) : images_(std::move(images)) {}  // [N, D], on the training device
  int dimX() const override { return int(images_.size(1)); }
  int dimY() const override { return int(images_.size(1)); }
  double totalMi() const override { return std::numeric_limits<double>::quiet_NaN(); }
  std::unique_ptr<TaskSampler> sampler(c10::Device device) const override;

 private:
  at::Tensor images_;
};

}  // namespace milab
