#include "nn/flat_adam.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <stdexcept>
#include <unordered_set>

namespace milab {

FlatAdam::FlatAdam(const std::vector<at::Tensor>& parameters, double lr, double beta1, double beta2, double eps)
    : lr_(lr), beta1_(beta1), beta2_(beta2), eps_(eps) {
  std::unordered_set<const void*> seen;
  int64_t total = 0;
  for (const at::Tensor& p : parameters) {
    if (!seen.insert(p.unsafeGetTensorImpl()).second) continue;
    if (!params_.empty() && (p.scalar_type() != params_[0].scalar_type() || p.device() != params_[0].device()))
      throw std::invalid_argument("FlatAdam: parameters of one dtype on one device only");
    params_.push_back(p);
    total += p.numel();
  }
  if (params_.empty()) throw std::invalid_argument("FlatAdam: no parameters");
  c10::NoGradGuard noGrad;
  const at::TensorOptions options = params_[0].options().requires_grad(false);
  values_ = at::empty({total}, options);
  grads_ = at::zeros({total}, options);
  int64_t offset = 0;
  for (at::Tensor& p : params_) {
    const int64_t n = p.numel();
    at::Tensor slot = values_.narrow(0, offset, n).view(p.sizes());
    slot.copy_(p);
    p.set_data(slot);  // the same parameter (autograd identity, module registration), now stored in values_
    p.mutable_grad() = grads_.narrow(0, offset, n).view(p.sizes());
    offset += n;
  }
  expAvg_ = at::zeros_like(values_);
  expAvgSq_ = at::zeros_like(values_);
}

void FlatAdam::zero_grad() { grads_.zero_(); }

void FlatAdam::step() {
  c10::NoGradGuard noGrad;
  ++steps_;
  // torch::optim::Adam::step, operation for operation (torch/csrc/api/src/optim/adam.cpp, 1.13).
  const double biasCorrection1 = 1 - std::pow(beta1_, steps_);
  const double biasCorrection2 = 1 - std::pow(beta2_, steps_);
  expAvg_.mul_(beta1_).add_(grads_, 1 - beta1_);
  expAvgSq_.mul_(beta2_).addcmul_(grads_, grads_, 1 - beta2_);
  const at::Tensor denom = (expAvgSq_.sqrt() / std::sqrt(biasCorrection2)).add_(eps_);
  values_.addcdiv_(expAvg_, denom, -(lr_ / biasCorrection1));
}

}  // namespace milab
