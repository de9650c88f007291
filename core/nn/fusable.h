#pragma once
// When a tensor can go through the hand-written float loops (plugins/demi/candidate_nce, candidate_scores) instead of
// ATen's ops: contiguous float32 on the CPU, unless the CPU takes the device's route (nn/device_route.h). Torch
// header.
#include <ATen/core/Tensor.h>

#include "nn/device_route.h"

namespace milab {

inline bool fusable(const at::Tensor& t) {
  return t.is_cpu() && t.scalar_type() == at::kFloat && t.is_contiguous() && !cpuTakesDeviceRoute();
}

}  // namespace milab
