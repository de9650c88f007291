#pragma once
// Random-projection LSH (sign random projections, Charikar 2002), the baseline of the AMMI paper's Table 1: an
// image y hashes to m bits z_i = [w_i . (y - mean) > 0], w_i ~ N(0, I), the mean taken over the training images.
// (The learned codes are the hashing experiment's method's: hashing/hashing_experiment.h.)
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

namespace milab {

class LshHasher {
 public:
  LshHasher(const at::Tensor& trainImages, int64_t bits, at::Generator& gen);
  at::Tensor codes(const at::Tensor& images) const;  // [N, m] int64 0/1

 private:
  at::Tensor mean_, projection_;  // [D], [D, m]
};

}  // namespace milab
