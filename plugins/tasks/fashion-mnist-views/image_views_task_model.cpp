#include "image_views_task_model.h"

#include "image_views_sampler.h"

namespace milab {

std::unique_ptr<TaskSampler> ImageViewsTaskModel::sampler(c10::Device device) const {
  return std::make_unique<ImageViewsSampler>(*images_, options_, device);
}

}  // namespace milab
