// The diffusion estimators' moving average of the weights (denoiser_average.h).
#include "denoiser_average.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

namespace milab {

namespace {

// A denoiser of these sizes on the trained one's device, or none without an average. Its own initialisation is
// overwritten by WeightAverage, so it draws from a generator of its own, not the run's.
Denoiser averageOf(const Denoiser& trained, int64_t dimX, int64_t dimY, int64_t hidden, int64_t layers, double decay) {
  if (decay <= 0) return Denoiser(nullptr);
  at::Generator unused = at::make_generator<at::CPUGeneratorImpl>(0);
  Denoiser average(dimX, dimY, hidden, layers, unused);
  average->to(trained->parameters().front().device());
  return average;
}

}  // namespace

DenoiserAverage::DenoiserAverage(Denoiser trained, int64_t dimX, int64_t dimY, int64_t hidden, int64_t layers,
                                 double decay)
    : trained_(std::move(trained)),
      average_(averageOf(trained_, dimX, dimY, hidden, layers, decay)),
      weights_(trained_->parameters(), average_ ? average_->parameters() : std::vector<at::Tensor>{}, decay) {}

void DenoiserAverage::update() { weights_.update(); }

}  // namespace milab
