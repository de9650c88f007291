#include "nn/flat_adam.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <unordered_set>
#include <vector>

#include "nn/adam_rows.h"
#include "nn/device_route.h"

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

namespace {

// torch::optim::Adam::step, operation for operation (torch/csrc/api/src/optim/adam.cpp, 1.13), over flat tensors.
void atenAdamStep(at::Tensor& values, const at::Tensor& grads, at::Tensor& expAvg, at::Tensor& expAvgSq, double lr,
                  double beta1, double beta2, double eps, int64_t step) {
  const double biasCorrection1 = 1 - std::pow(beta1, step);
  const double biasCorrection2 = 1 - std::pow(beta2, step);
  expAvg.mul_(beta1).add_(grads, 1 - beta1);
  expAvgSq.mul_(beta2).addcmul_(grads, grads, 1 - beta2);
  const at::Tensor denom = (expAvgSq.sqrt() / std::sqrt(biasCorrection2)).add_(eps);
  values.addcdiv_(expAvg, denom, -(lr / biasCorrection1));
}

// The same step in one pass (nn/adam_rows.h), each constant the float ATen makes of its double.
void fusedAdamStep(at::Tensor& values, const at::Tensor& grads, at::Tensor& expAvg, at::Tensor& expAvgSq, double lr,
                   double beta1, double beta2, double eps, int64_t step) {
  const double biasCorrection1 = 1 - std::pow(beta1, step);
  const double biasCorrection2 = 1 - std::pow(beta2, step);
  const AdamRowsStep s{static_cast<float>(beta1),
                       static_cast<float>(1 - beta1),
                       static_cast<float>(beta2),
                       static_cast<float>(1 - beta2),
                       static_cast<float>(std::sqrt(biasCorrection2)),
                       static_cast<float>(eps),
                       static_cast<float>(-(lr / biasCorrection1))};
  adamRows(values.data_ptr<float>(), grads.data_ptr<float>(), expAvg.data_ptr<float>(), expAvgSq.data_ptr<float>(),
           values.numel(), s);
}

}  // namespace

bool adamRowsReproduceAten() {
  // A probe of 4,099 parameters (not a whole number of vectors) over four steps, gradients of every scale a run
  // meets (1, 1e-4, 1e-20, 0), drawn by its own generator so no run's stream moves.
  static const bool same = [] {
    if (!adamRowsHaveFma()) return false;
    c10::NoGradGuard noGrad;
    const int64_t n = 4099;
    std::mt19937 engine(20261128);
    std::normal_distribution<float> normal;
    std::vector<float> start(n);
    for (float& x : start) x = normal(engine);
    const auto flat = [&] { return at::tensor(start, at::kFloat); };
    at::Tensor v1 = flat(), v2 = flat(), m1 = at::zeros({n}), m2 = at::zeros({n}), s1 = at::zeros({n}),
               s2 = at::zeros({n});
    for (int64_t step = 1; step <= 4; ++step) {
      std::vector<float> g(n);
      const float scale[] = {1.0f, 1e-4f, 1e-20f, 0.0f};
      for (int64_t i = 0; i < n; ++i) g[i] = normal(engine) * scale[(i + step) % 4];
      const at::Tensor grads = at::tensor(g, at::kFloat);
      atenAdamStep(v1, grads, m1, s1, 1e-3, 0.9, 0.999, 1e-8, step);
      fusedAdamStep(v2, grads, m2, s2, 1e-3, 0.9, 0.999, 1e-8, step);
    }
    const auto bitEqual = [](const at::Tensor& a, const at::Tensor& b) {
      return std::memcmp(a.data_ptr<float>(), b.data_ptr<float>(), a.numel() * sizeof(float)) == 0;
    };
    return bitEqual(v1, v2) && bitEqual(m1, m2) && bitEqual(s1, s2);
  }();
  return same;
}

void FlatAdam::step() {
  c10::NoGradGuard noGrad;
  ++steps_;
  if (values_.is_cpu() && values_.scalar_type() == at::kFloat && !cpuTakesDeviceRoute() && adamRowsReproduceAten())
    fusedAdamStep(values_, grads_, expAvg_, expAvgSq_, lr_, beta1_, beta2_, eps_, steps_);
  else
    atenAdamStep(values_, grads_, expAvg_, expAvgSq_, lr_, beta1_, beta2_, eps_, steps_);
}

}  // namespace milab
