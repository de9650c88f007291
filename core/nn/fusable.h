#pragma once
// When a tensor can go through the hand-written float loops (plugins/demi/candidate_nce, candidate_scores) instead of
// ATen's ops: contiguous float32 on the CPU. Torch header.
#include <ATen/core/Tensor.h>

namespace milab {

inline bool fusable(const at::Tensor& t) { return t.is_cpu() && t.scalar_type() == at::kFloat && t.is_contiguous(); }

}  // namespace milab
