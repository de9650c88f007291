#pragma once
// The views of fashion-mnist-views as a TaskSampler: each joint draw picks training images uniformly (with the
// caller's generator) and returns two augmentations of each as x and y and a subview of x as x', flattened to
// [B, S * S]. Its labelled images are what a linear probe reads; training never sees a label.
#include <memory>

#include "image_views.h"
#include "tasks/task_sampler.h"

namespace milab {

class ImageViewsSampler final : public TaskSampler {
 public:
  // `images` on the CPU; the sampler keeps its own copy on `device`.
  ImageViewsSampler(const LabelledImages& images, ViewOptions options, c10::Device device);

  int dimX() const override { return int(side_ * side_); }
  int dimY() const override { return int(side_ * side_); }
  bool hasSubview() const override { return true; }
  Batch sampleJoint(int64_t n, at::Generator& gen) const override { return sampleLabelledJoint(n, gen, nullptr); }
  Batch sampleLabelledJoint(int64_t n, at::Generator& gen, at::Tensor* labels) const override;
  const LabelledImages* labelledImages() const override { return &images_; }

 private:
  LabelledImages images_;
  ViewOptions options_;
  int64_t side_;
};

}  // namespace milab
