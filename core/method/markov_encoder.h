#pragma once
// A capability an Estimator may offer: an encoder p(z|y) of binary codes with Markov logits (AMMI, BMMI). The
// prior-order sweep (engine/prior_order_sweep.h, AMMI's Figure 1(a)) reads it after training; it asks for it by
// MethodInfo::markovEncoder before it starts and by dynamic_cast after, never by method id.
#include <ATen/core/Tensor.h>

namespace milab {

class MarkovEncoder {
 public:
  virtual ~MarkovEncoder() = default;
  // The encoder's Markov logits [B, m, 2^o] on y [B, dimY].
  virtual at::Tensor encoderLogits(const at::Tensor& y) = 0;
};

}  // namespace milab
