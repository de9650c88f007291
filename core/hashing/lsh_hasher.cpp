#include "hashing/lsh_hasher.h"

#include <ATen/ATen.h>

namespace milab {

LshHasher::LshHasher(const at::Tensor& trainImages, int64_t bits, at::Generator& gen)
    : mean_(trainImages.mean(0)),
      projection_(at::randn({trainImages.size(1), bits}, gen, trainImages.options().device(at::kCPU))
                      .to(trainImages.device())) {}

at::Tensor LshHasher::codes(const at::Tensor& images) const {
  return (at::matmul(images - mean_, projection_) > 0).to(at::kLong);
}

}  // namespace milab
