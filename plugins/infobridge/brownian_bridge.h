#pragma once
// The Brownian bridges InfoBridge reads MI over (Kholkin, Butakov et al., ICLR 2026). A bridge from `start` at t = 0
// to `end` at t = 1 with noise eps is at
//   z_t = t end + (1 - t) start + sqrt(eps t (1 - t)) noise,   noise ~ N(0, I),
// and its drift there is (end - z_t) / (1 - t). Given x, bridges from a start fixed by x (x itself, or the origin) to
// y ~ p(y|x) and to y ~ p(y) make two Markov processes whose drifts are the expectations of that drift given z_t;
// their KL divergence is (1 / 2 eps) times the integral over t of E |v_joint - v_ind|^2 (Girsanov), and it equals
// KL(p(y|x) || p(y)), whose mean over x is I(x; y).
// Torch header: include it only from torch translation units.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

namespace milab {

// n times uniform in [tMin, tMax], in `options`.
at::Tensor bridgeTimes(int64_t n, double tMin, double tMax, at::Generator& gen, const at::TensorOptions& options);

// z_t for rows of start and end [n, d] at times t [n], with the given standard normal noise [n, d].
at::Tensor bridgeState(const at::Tensor& start, const at::Tensor& end, const at::Tensor& t, const at::Tensor& noise,
                       double eps);

// (end - z) / (1 - t): the drift of the bridge pinned at `end`, which the drift network learns to predict.
at::Tensor bridgeTarget(const at::Tensor& end, const at::Tensor& z, const at::Tensor& t);

// The exact drift E[(Y - z_t) / (1 - t) | z_t = z] of bridges from `start` to Y ~ N(mean, variance), independently
// per coordinate (mean [n, d], variance broadcast to it): with s^2 the variance and sigma^2 = eps t (1 - t),
//   E[Y | z] = mean + t s^2 / (t^2 s^2 + sigma^2) (z - t mean - (1 - t) start).
at::Tensor gaussianBridgeDrift(const at::Tensor& z, const at::Tensor& start, const at::Tensor& t,
                               const at::Tensor& mean, const at::Tensor& variance, double eps);

}  // namespace milab
