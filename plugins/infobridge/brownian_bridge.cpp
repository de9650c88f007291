#include "brownian_bridge.h"

#include <ATen/ATen.h>

namespace milab {

at::Tensor bridgeTimes(int64_t n, double tMin, double tMax, at::Generator& gen, const at::TensorOptions& options) {
  return at::empty({n}, options).uniform_(tMin, tMax, gen);
}

at::Tensor bridgeState(const at::Tensor& start, const at::Tensor& end, const at::Tensor& t, const at::Tensor& noise,
                       double eps) {
  const at::Tensor tc = t.unsqueeze(1);
  return tc * end + (1 - tc) * start + (eps * tc * (1 - tc)).sqrt() * noise;
}

at::Tensor bridgeTarget(const at::Tensor& end, const at::Tensor& z, const at::Tensor& t) {
  return (end - z) / (1 - t).unsqueeze(1);
}

at::Tensor gaussianBridgeDrift(const at::Tensor& z, const at::Tensor& start, const at::Tensor& t,
                               const at::Tensor& mean, const at::Tensor& variance, double eps) {
  const at::Tensor tc = t.unsqueeze(1);
  const at::Tensor noiseVariance = eps * tc * (1 - tc);
  const at::Tensor gain = tc * variance / (tc * tc * variance + noiseVariance);
  const at::Tensor posteriorMean = mean + gain * (z - tc * mean - (1 - tc) * start);
  return (posteriorMean - z) / (1 - tc);
}

}  // namespace milab
