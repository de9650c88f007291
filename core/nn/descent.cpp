#include "nn/descent.h"

#include <ATen/ATen.h>

namespace milab {

namespace {

// torch::nn::utils::clip_grad_norm_ (L2), op for op so that a CPU run's numbers keep every digit, without its
// return value: reading the norm back to the host would make each of AMMI's steps wait for the device.
void clipGradNorm(const std::vector<at::Tensor>& parameters, double maxNorm) {
  std::vector<at::Tensor> grads, norms;
  for (const at::Tensor& p : parameters)
    if (p.grad().defined()) grads.push_back(p.grad());
  if (grads.empty()) return;
  for (const at::Tensor& g : grads) norms.push_back(g.norm(2.0));
  const at::Tensor total = norms.size() == 1 ? norms[0] : at::stack(norms).norm(2.0);
  const at::Tensor coefficient = at::clamp(maxNorm / (total + 1e-6), c10::nullopt, 1.0);
  for (at::Tensor& g : grads) g.mul_(coefficient);
}

}  // namespace

void descend(FlatAdam& adam, const at::Tensor& loss) {
  adam.zero_grad();
  loss.backward();
  adam.step();
}

void descendClipped(FlatAdam& adam, const at::Tensor& loss, const std::vector<std::vector<at::Tensor>>& clipGroups,
                    double maxNorm) {
  adam.zero_grad();
  loss.backward();
  for (const std::vector<at::Tensor>& group : clipGroups) clipGradNorm(group, maxNorm);
  adam.step();
}

}  // namespace milab
