#pragma once
// The moving average of a denoiser's weights that a diffusion estimator reads with (timm's EMA, which both
// references offer: MINDE turns it on, MMG's code has it as an option). Readings and held-out losses from the
// average are steadier than the trained weights' own, which jump with every step's noise.
#include "denoiser.h"
#include "nn/weight_average.h"

namespace milab {

class DenoiserAverage {
 public:
  // decay <= 0: no average, reader() is `trained` itself. Otherwise a second network of the trained one's sizes
  // (dimX, dimY, hidden, layers) on its device starts at the trained weights, as timm's EMA does, and follows them by
  // `decay` per update.
  DenoiserAverage(Denoiser trained, int64_t dimX, int64_t dimY, int64_t hidden, int64_t layers, double decay);

  void update();  // after each training step: average = decay * average + (1 - decay) * trained
  Denoiser& reader() { return average_ ? average_ : trained_; }

 private:
  Denoiser trained_, average_{nullptr};
  WeightAverage weights_;
};

}  // namespace milab
