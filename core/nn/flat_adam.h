#pragma once
// Adam over one flat buffer, the optimiser of every trained model in milab. The parameters handed in become views
// into one contiguous tensor, and their gradients views into another, so that a step is five in-place operations
// over all of them at once, and zeroing the gradients one fill. torch::optim::Adam loops over the parameters instead:
// about eight small operations each, a dispatch apiece on a CPU (most of an InfoNCE step at K = 128) and a kernel
// launch apiece on a GPU. The arithmetic is torch::optim::Adam's (LibTorch 1.13: no weight decay, no amsgrad) in
// the same order, so a run's numbers are unchanged to the bit (tests/core/test_flat_adam.cpp).
#include <ATen/core/Tensor.h>

#include <vector>

namespace milab {

class FlatAdam {
 public:
  // `parameters`: leaf tensors that require grad, of one dtype, on one device (a tensor listed twice counts once).
  // Their values are kept; from here on each is a view of the flat buffer (Tensor::set_data), so a module holding
  // them must not be moved to another device afterwards. Throws std::invalid_argument for mixed dtypes or devices.
  FlatAdam(const std::vector<at::Tensor>& parameters, double lr, double beta1 = 0.9, double beta2 = 0.999,
           double eps = 1e-8);

  void zero_grad();  // one fill: the gradients stay defined, backward accumulates into them in place
  void step();
  const std::vector<at::Tensor>& parameters() const { return params_; }

 private:
  std::vector<at::Tensor> params_;
  at::Tensor values_, grads_, expAvg_, expAvgSq_;  // [total], one entry per scalar parameter
  double lr_, beta1_, beta2_, eps_;
  int64_t steps_ = 0;
};

}  // namespace milab
