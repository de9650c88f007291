#pragma once
// The softmax rows' guard against expf's slow lanes (nn/softmax_rows): a difference d = s - largest below
// kExpUnderflows has exp(d) below FLT_MIN, which the threads that train flush to 0 (engine/device.cpp), and
// libmvec's expf works such lanes out one by one in scalar code (a third of InfoNCE's step at 20 nats, where most
// scores sit far below their row's best). So the exponential is asked only at d held to the threshold. There it
// gives FLT_MIN instead of that 0, which changes nothing the rows compute: their sum holds exp(0) = 1, to which
// FLT_MIN adds nothing, and a share is FLT_MIN / sum / k, below FLT_MIN, flushed to 0 on those threads. Compiled
// without -ffast-math, so that a NaN among the scores stays a NaN (under -ffinite-math-only the comparison may
// assume there is none). Torch-free.
#include <cstdint>

namespace milab {

// Every float below it has expf flushed to 0; at it and above, not (all floats in [-200, -80] compared).
constexpr float kExpUnderflows = -87.3365402f;

// arg[j] = max(s[j] - largest, kExpUnderflows), a NaN kept.
void heldExpArguments(const float* s, float largest, int64_t k, float* arg);

}  // namespace milab
