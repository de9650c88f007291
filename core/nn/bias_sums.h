#pragma once
// A Linear layer's bias gradient, the column sums of the gradient at its output, for the written-out separable
// pass (nn/separable_cpu_pass): of a row-major [rows, cols] matrix, and of one stored transposed ([cols, rows], the
// pass's embeddings). Both add each column's terms in the same order, row 0 first, so the two layouts give the same
// floats to the bit (test_separable_step checks it). Torch-free.
#include <cstdint>

namespace milab {

// sums[j] = sum_i in[i * cols + j], i ascending.
void columnSums(const float* in, int64_t rows, int64_t cols, float* sums);

// sums[j] = sum_i inT[j * rows + i], i ascending: the column sums of the matrix inT holds transposed.
void columnSumsOfTransposed(const float* inT, int64_t rows, int64_t cols, float* sums);

}  // namespace milab
