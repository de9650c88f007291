#pragma once
// The generator a sampler that draws on the CPU (bmi's float64 laws, the dialogue model's) hands its draws: the run's
// own on a CPU run; on a GPU, whose generator cannot drive a CPU draw, a CPU generator seeded once from the first one
// it is handed, and kept for the sampler's life.
#include <ATen/core/Generator.h>

#include <mutex>

namespace milab {

class CpuDrawGenerator {
 public:
  at::Generator& of(at::Generator& gen) const;

 private:
  mutable std::once_flag seeded_;
  mutable at::Generator cpu_;
};

}  // namespace milab
