#include "nn/softmax_rows.h"

#include <cmath>

#include "nn/exp_underflow.h"
#include "nn/target_clones.h"

namespace milab {

namespace {

struct RowSums {
  float largest, sum;  // the row's largest score and sum_j exp(s_j - largest)
};

// One row: exp(s_j - largest) left in `out`. The exponentials in a loop of their own, 16 lanes with AVX-512
// (libmvec's 16-lane expf gives the same float as its 8-lane one for every input: all 2^32 compared), and summed
// after in a loop of its own: with the sum in the same loop, the running sums were spilled and reloaded around
// every call into libmvec, about half of the row's time. The sum is in vector lanes, so its order of additions is
// the clone's (16 lanes or 8), as a GEMM's already is.
MILAB_CLONED_FOR_AVX512 RowSums exponentiate(const float* s, int64_t k, float* out) {
  // In vector lanes: a maximum is exact in any order (a serial chain of compares was a third of the row's time).
  float largest = s[0];
#pragma omp simd reduction(max : largest)
  for (int64_t j = 1; j < k; ++j) largest = s[j] > largest ? s[j] : largest;
  heldExpArguments(s, largest, k, out);  // nn/exp_underflow: no lane in expf's slow path
#pragma omp simd
  for (int64_t j = 0; j < k; ++j) out[j] = std::exp(out[j]);
  float sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t j = 0; j < k; ++j) sum += out[j];
  return {largest, sum};
}

MILAB_CLONED_FOR_AVX2 void scale(float* row, int64_t k, float factor) {
#pragma omp simd
  for (int64_t j = 0; j < k; ++j) row[j] *= factor;
}

}  // namespace

double inBatchNceRows(const float* scores, int64_t k, float* grad) {
  double total = 0;
  const float perRow = 1.f / static_cast<float>(k);
  for (int64_t i = 0; i < k; ++i) {
    const float* s = scores + i * k;
    float* g = grad + i * k;
    const RowSums row = exponentiate(s, k, g);
    const float logSumExp = row.largest + std::log(row.sum);
    scale(g, k, perRow / row.sum);  // softmax_i(j) / k
    g[i] -= perRow;
    total += static_cast<double>(s[i]) - static_cast<double>(logSumExp);
  }
  return total;
}

float logSumExp(const float* s, int64_t k, float* scratch) {
  const RowSums row = exponentiate(s, k, scratch);
  return row.largest + std::log(row.sum);
}

}  // namespace milab
