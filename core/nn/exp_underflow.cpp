// Compiled with g++ in a Clang build (cmake/gcc_kernels.cmake), as the softmax rows it serves.
#include "nn/exp_underflow.h"

#include "nn/target_clones.h"

namespace milab {

MILAB_CLONED_FOR_AVX512 void heldExpArguments(const float* __restrict s, float largest, int64_t k,
                                              float* __restrict arg) {
  for (int64_t j = 0; j < k; ++j) {
    const float d = s[j] - largest;
    arg[j] = d < kExpUnderflows ? kExpUnderflows : d;  // NaN < x is false: a NaN passes
  }
}

}  // namespace milab
