#include "class_channel_task_model.h"

#include <cmath>

#include "class_channel.h"
#include "class_channel_sampler.h"

namespace milab {

double ClassChannelTaskModel::totalMi() const { return classChannelMi(sources_, crossover_); }

double ClassChannelTaskModel::largestMi() const { return sources_ * std::log(2.0); }

std::unique_ptr<TaskSampler> ClassChannelTaskModel::sampler(c10::Device device) const {
  return std::make_unique<ClassChannelSampler>(pools_, sources_, crossover_, device);
}

}  // namespace milab
