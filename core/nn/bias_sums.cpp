// Compiled with g++ in a Clang build (cmake/gcc_kernels.cmake), as the pass it serves.
#include "nn/bias_sums.h"

#include "nn/target_clones.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define MILAB_HAVE_AVX2_PATH 1
#endif

namespace milab {

MILAB_CLONED_FOR_AVX2 void columnSums(const float* in, int64_t rows, int64_t cols, float* sums) {
  for (int64_t j = 0; j < cols; ++j) sums[j] = 0;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) sums[j] += in[i * cols + j];
}

namespace {

// Rows j0..j0+count-1 of inT, one at a time: the columns left over after the 8-row blocks.
void plainRowSums(const float* inT, int64_t rows, int64_t j0, int64_t count, float* sums) {
  for (int64_t j = j0; j < j0 + count; ++j) {
    float sum = 0;
    for (int64_t i = 0; i < rows; ++i) sum += inT[j * rows + i];
    sums[j] = sum;
  }
}

#ifdef MILAB_HAVE_AVX2_PATH
// r[t] <- element t of each of r[0..7] (the 8 x 8 block transposed): unpack, 64-bit shuffle, then swap 128-bit halves.
__attribute__((target("avx2"))) inline void transpose8(__m256 r[8]) {
  __m256 t[8], u[8];
  for (int p = 0; p < 4; ++p) {
    t[2 * p] = _mm256_unpacklo_ps(r[2 * p], r[2 * p + 1]);
    t[2 * p + 1] = _mm256_unpackhi_ps(r[2 * p], r[2 * p + 1]);
  }
  for (int q = 0; q < 2; ++q) {
    u[4 * q] = _mm256_shuffle_ps(t[4 * q], t[4 * q + 2], 0x44);
    u[4 * q + 1] = _mm256_shuffle_ps(t[4 * q], t[4 * q + 2], 0xEE);
    u[4 * q + 2] = _mm256_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0x44);
    u[4 * q + 3] = _mm256_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0xEE);
  }
  for (int c = 0; c < 4; ++c) {
    r[c] = _mm256_permute2f128_ps(u[c], u[c + 4], 0x20);
    r[c + 4] = _mm256_permute2f128_ps(u[c], u[c + 4], 0x31);
  }
}

// Eight rows at a time: an 8 x 8 block loaded row by row and transposed in registers, its columns then added in
// turn, so each lane adds its row's terms in order. Strided single loads took 2.5 us a call at [100, 128].
__attribute__((target("avx2"))) void columnSumsOfTransposedAvx2(const float* inT, int64_t rows, int64_t cols,
                                                                float* sums) {
  int64_t j0 = 0;
  for (; j0 + 8 <= cols; j0 += 8) {
    __m256 acc = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= rows; i += 8) {
      __m256 block[8];
      for (int l = 0; l < 8; ++l) block[l] = _mm256_loadu_ps(inT + (j0 + l) * rows + i);
      transpose8(block);
      for (int t = 0; t < 8; ++t) acc = _mm256_add_ps(acc, block[t]);
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, acc);
    for (; i < rows; ++i)
      for (int l = 0; l < 8; ++l) lanes[l] += inT[(j0 + l) * rows + i];
    for (int l = 0; l < 8; ++l) sums[j0 + l] = lanes[l];
  }
  plainRowSums(inT, rows, j0, cols - j0, sums);
}
#endif

}  // namespace

void columnSumsOfTransposed(const float* inT, int64_t rows, int64_t cols, float* sums) {
#ifdef MILAB_HAVE_AVX2_PATH
  if (__builtin_cpu_supports("avx2")) return columnSumsOfTransposedAvx2(inT, rows, cols, sums);
#endif
  plainRowSums(inT, rows, 0, cols, sums);
}

}  // namespace milab
