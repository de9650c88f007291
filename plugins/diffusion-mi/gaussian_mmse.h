#pragma once
// The I-MMSE relation on a Gaussian, in closed form: for z = sqrt(snr) x + noise with x ~ N(0, S) (eigenvalues
// lambda_i), the error of the best estimate of the noise is mmse(g) = sum_i sigmoid(g + log lambda_i) at g = log
// snr, and I(x;y) = 1/2 integral over g of (mmse of x alone - mmse given y), whose integrand with y uses the
// eigenvalues of S given y (Guo, Shamai and Verdu, 2005; MMG's and ITD's form over log-SNR).
// Torch header: include it only from torch translation units.
#include <ATen/core/Tensor.h>

namespace milab {

// mmse(g) for each g [n] of a Gaussian with these covariance eigenvalues [d]: [n], float64.
at::Tensor gaussianNoiseMmse(const at::Tensor& g, const at::Tensor& eigenvalues);

// mmse with `marginal` - mmse with `givenY` at each g [n]: the I-MMSE integrand both oracles (mmg's, minde-c's)
// integrate over their own draws. [n], float64.
at::Tensor gaussianNoiseMmseGap(const at::Tensor& g, const at::Tensor& marginal, const at::Tensor& givenY);

// 1/2 integral over [lowest, highest] of (mmse with `marginal` - mmse with `givenY`), exactly (the integral of
// sigmoid(g + a) is softplus(g + a)); over the whole line it is 1/2 sum(log marginal) - 1/2 sum(log givenY).
double gaussianImmseIntegral(const at::Tensor& marginal, const at::Tensor& givenY, double lowest, double highest);

}  // namespace milab
