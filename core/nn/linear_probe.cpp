#include "nn/linear_probe.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>
#include <torch/optim/lbfgs.h>

namespace milab {

double linearProbeAccuracy(const at::Tensor& trainFeatures, const at::Tensor& trainLabels,
                           const at::Tensor& testFeatures, const at::Tensor& testLabels, int64_t classes,
                           const LinearProbeOptions& options) {
  torch::NoGradGuard frozen;  // the features are constants: no graph back into the encoder
  const at::Tensor train = trainFeatures.detach().to(at::kFloat), test = testFeatures.detach().to(at::kFloat);
  const at::Tensor mean = train.mean(0, true);
  // A constant feature has deviation 0: it becomes 0 (carries nothing), not NaN.
  const at::Tensor scale = train.std(0, false, true).clamp_min(1e-6);
  const at::Tensor a = (train - mean) / scale, b = (test - mean) / scale;

  // Zeros start: the optimum is unique (strictly convex with the decay), so no generator is needed.
  at::Tensor weight = at::zeros({a.size(1), classes}, a.options()).set_requires_grad(true);
  at::Tensor bias = at::zeros({classes}, a.options()).set_requires_grad(true);
  torch::optim::LBFGS optimiser({weight, bias}, torch::optim::LBFGSOptions(1)
                                                    .max_iter(options.iterations)
                                                    .history_size(20)
                                                    .tolerance_grad(1e-6)
                                                    .tolerance_change(1e-9)
                                                    .line_search_fn("strong_wolfe"));
  const auto loss = [&] {
    torch::AutoGradMode enabled(true);
    optimiser.zero_grad();
    at::Tensor l =
        at::cross_entropy_loss(at::addmm(bias, a, weight), trainLabels) + options.weightDecay * weight.pow(2).sum();
    l.backward();
    return l;
  };
  optimiser.step(loss);
  const at::Tensor predicted = at::addmm(bias, b, weight).argmax(1);
  return predicted.eq(testLabels).to(at::kDouble).mean().item<double>();
}

}  // namespace milab
