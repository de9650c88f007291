// The diffusion estimators' moving average of the weights (denoiser_average.h).
#include "denoiser_average.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

namespace milab {

DenoiserAverage::DenoiserAverage(Denoiser trained, int64_t dimX, int64_t dimY, int64_t hidden, int64_t layers,
                                 double decay)
    : trained_(std::move(trained)), decay_(decay) {
  if (decay_ <= 0) return;
  // Its own initialisation is overwritten below, so it draws from a generator of its own, not the run's.
  at::Generator unused = at::make_generator<at::CPUGeneratorImpl>(0);
  average_ = Denoiser(dimX, dimY, hidden, layers, unused);
  average_->to(trained_->parameters().front().device());
  trainedTensors_ = trained_->parameters();
  averagedTensors_ = average_->parameters();
  c10::NoGradGuard noGrad;
  for (size_t i = 0; i < averagedTensors_.size(); ++i) averagedTensors_[i].copy_(trainedTensors_[i]);
}

void DenoiserAverage::update() {
  if (!average_) return;
  c10::NoGradGuard noGrad;
  for (size_t i = 0; i < averagedTensors_.size(); ++i) averagedTensors_[i].lerp_(trainedTensors_[i], 1 - decay_);
}

}  // namespace milab
