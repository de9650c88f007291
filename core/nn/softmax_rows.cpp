#include "nn/softmax_rows.h"

#include <cmath>

#include "nn/target_clones.h"

namespace milab {

namespace {

struct RowSums {
  float largest, sum;  // the row's largest score and sum_j exp(s_j - largest)
};

// One row: exp(s_j - largest) left in `out`.
MILAB_CLONED_FOR_AVX2 RowSums exponentiate(const float* s, int64_t k, float* out) {
  float largest = s[0];
  for (int64_t j = 1; j < k; ++j) largest = s[j] > largest ? s[j] : largest;
  float sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t j = 0; j < k; ++j) {
    out[j] = std::exp(s[j] - largest);
    sum += out[j];
  }
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
