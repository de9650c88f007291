// Compiled with g++ in a Clang build (cmake/gcc_kernels.cmake), as the pass it serves.
#include "nn/bias_sums.h"

#include "nn/target_clones.h"

namespace milab {

// Row by row, each row's terms added across the columns' lanes: contiguous loads, vectorised over j.
MILAB_CLONED_FOR_AVX2 void columnSums(const float* in, int64_t rows, int64_t cols, float* sums) {
  for (int64_t j = 0; j < cols; ++j) sums[j] = 0;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) sums[j] += in[i * cols + j];
}

MILAB_CLONED_FOR_AVX2 void columnSumsOfTransposed(const float* inT, int64_t rows, int64_t cols, float* sums) {
  for (int64_t j = 0; j < cols; ++j) {
    const float* row = inT + j * rows;
    float sum = 0;
#pragma omp simd reduction(+ : sum)
    for (int64_t i = 0; i < rows; ++i) sum += row[i];
    sums[j] = sum;
  }
}

}  // namespace milab
