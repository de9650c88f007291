#pragma once
// The generator a Monte Carlo reading (the diffusion estimators', InfoBridge's) draws its times and noise with, made
// from the rows it reads: the same held-out rows read again after more training get the same draws (common random
// numbers). Two readings, and the held-out losses that early stopping and report = best compare, then differ by the
// network alone, not by the Monte Carlo noise of the integral, which on a plateau is larger than a few hundred steps'
// progress. A reading no longer draws from the run's own generator either, so how often the held-out part is read
// does not change training.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

namespace milab {

// Seeded from a hash of the rows' count and sums (one small host read per reading batch), on `device`.
at::Generator readingGenerator(const at::Tensor& x, const at::Tensor& y, c10::Device device);

}  // namespace milab
