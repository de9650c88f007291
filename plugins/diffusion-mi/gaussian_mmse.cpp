// The Gaussian's denoising errors and their I-MMSE integral (gaussian_mmse.h).
#include "gaussian_mmse.h"

#include <ATen/ATen.h>

namespace milab {

at::Tensor gaussianNoiseMmse(const at::Tensor& g, const at::Tensor& eigenvalues) {
  const at::Tensor logLambda = eigenvalues.to(at::kDouble).log().to(g.device());
  return at::sigmoid(g.to(at::kDouble).unsqueeze(1) + logLambda.unsqueeze(0)).sum(1);
}

at::Tensor gaussianNoiseMmseGap(const at::Tensor& g, const at::Tensor& marginal, const at::Tensor& givenY) {
  return gaussianNoiseMmse(g, marginal) - gaussianNoiseMmse(g, givenY);
}

double gaussianImmseIntegral(const at::Tensor& marginal, const at::Tensor& givenY, double lowest, double highest) {
  const auto area = [&](const at::Tensor& eigenvalues) {
    const at::Tensor a = eigenvalues.to(at::kDouble).log();
    return (at::softplus(a + highest) - at::softplus(a + lowest)).sum().item<double>();
  };
  return 0.5 * (area(marginal) - area(givenY));
}

}  // namespace milab
