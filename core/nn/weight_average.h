#pragma once
// A moving average of a network's weights (timm's EMA): readings from the average are steadier than the trained
// weights' own, which jump with every step's noise. The diffusion estimators (their denoiser) and InfoBridge (its
// drift) read with one.
#include <ATen/core/Tensor.h>

#include <vector>

namespace milab {

class WeightAverage {
 public:
  // `averaged`: the parameters of a second network of the trained one's shapes, in the same order, on its device;
  // they start at the trained weights, as timm's EMA does, and follow them by `decay` per update. decay <= 0: no
  // average (`averaged` may be empty and update does nothing).
  WeightAverage(std::vector<at::Tensor> trained, std::vector<at::Tensor> averaged, double decay);
  void update();  // after each training step: average = decay * average + (1 - decay) * trained
  bool active() const { return decay_ > 0; }

 private:
  std::vector<at::Tensor> trained_, averaged_;
  double decay_;
};

}  // namespace milab
