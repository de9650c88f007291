#include "nn/weight_average.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <stdexcept>

namespace milab {

WeightAverage::WeightAverage(std::vector<at::Tensor> trained, std::vector<at::Tensor> averaged, double decay)
    : trained_(std::move(trained)), averaged_(std::move(averaged)), decay_(decay) {
  if (decay_ <= 0) return;
  if (averaged_.size() != trained_.size()) throw std::invalid_argument("WeightAverage: networks of different shapes");
  c10::NoGradGuard noGrad;
  for (size_t i = 0; i < averaged_.size(); ++i) averaged_[i].copy_(trained_[i]);
}

void WeightAverage::update() {
  if (decay_ <= 0) return;
  c10::NoGradGuard noGrad;
  for (size_t i = 0; i < averaged_.size(); ++i) averaged_[i].lerp_(trained_[i], 1 - decay_);
}

}  // namespace milab
