#pragma once
// A Linear layer's bias gradient, the column sums of the gradient at its output, for the written-out separable
// pass (nn/separable_cpu_pass): of a row-major [rows, cols] matrix, and of one stored transposed ([cols, rows], the
// pass's embeddings), whose columns are then contiguous rows summed in vector lanes. The two agree up to the order
// of float additions. Torch-free.
#include <cstdint>

namespace milab {

// sums[j] = sum_i in[i * cols + j].
void columnSums(const float* in, int64_t rows, int64_t cols, float* sums);

// sums[j] = sum_i inT[j * rows + i]: the column sums of the matrix inT holds transposed.
void columnSumsOfTransposed(const float* inT, int64_t rows, int64_t cols, float* sums);

}  // namespace milab
