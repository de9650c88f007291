// Built with -ffp-contract=off and -fno-math-errno (core/CMakeLists.txt): no multiply-add is fused but the two
// written out, and sqrt vectorises (no errno to set for a square root of a non-negative number).
#include "nn/adam_rows.h"

#include <cmath>

#include "nn/target_clones.h"

namespace milab {

MILAB_CLONED_FOR_AVX512 void adamRows(float* __restrict values, const float* __restrict grads, float* __restrict expAvg,
                                      float* __restrict expAvgSq, int64_t n, const AdamRowsStep& s) {
  const float beta1 = s.beta1, oneMinusBeta1 = s.oneMinusBeta1, beta2 = s.beta2, oneMinusBeta2 = s.oneMinusBeta2,
              sqrtBiasCorrection2 = s.sqrtBiasCorrection2, eps = s.eps, negativeStepSize = s.negativeStepSize;
  for (int64_t i = 0; i < n; ++i) {
    const float g = grads[i];
    const float m = std::fma(g, oneMinusBeta1, expAvg[i] * beta1);        // exp_avg.mul_(b1).add_(g, 1 - b1)
    const float v = std::fma(g * oneMinusBeta2, g, expAvgSq[i] * beta2);  // exp_avg_sq.mul_(b2).addcmul_(g, g, 1 - b2)
    const float denom = std::sqrt(v) / sqrtBiasCorrection2 + eps;         // (sqrt(v) / sqrt(bc2)).add_(eps)
    values[i] = values[i] + negativeStepSize * m / denom;                 // addcdiv_(m, denom, -lr / bc1)
    expAvg[i] = m;
    expAvgSq[i] = v;
  }
}

bool adamRowsHaveFma() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

}  // namespace milab
