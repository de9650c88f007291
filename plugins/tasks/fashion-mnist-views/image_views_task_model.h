#pragma once
// A configured fashion-mnist-views task: the images and the view options. No law with a known MI behind the
// views, so no truth (NaN); what a run of it reports is its encoder's linear-probe accuracy.
#include <memory>

#include "image_views.h"
#include "tasks/task.h"
#include "tasks/task_sampler.h"

namespace milab {

class ImageViewsTaskModel final : public TaskModel {
 public:
  ImageViewsTaskModel(std::shared_ptr<const LabelledImages> images, ViewOptions options)
      : images_(std::move(images)), options_(options) {}

  int dimX() const override { return int(images_->trainImages.size(-1) * images_->trainImages.size(-1)); }
  int dimY() const override { return dimX(); }
  bool hasSubview() const override { return true; }
  double totalMi() const override { return std::numeric_limits<double>::quiet_NaN(); }
  QList<NamedValue> truths() const override { return {}; }
  std::unique_ptr<TaskSampler> sampler(c10::Device device) const override;

 private:
  std::shared_ptr<const LabelledImages> images_;
  ViewOptions options_;
};

}  // namespace milab
