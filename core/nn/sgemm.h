#pragma once
// One row-major float GEMM, C [m, n] = op(A) op(B) + beta C, for the hand-written training passes
// (nn/separable_cpu_pass, plugins/demi/candidate_nce). Through oneDNN's sgemm where the build found it: it picks its
// kernel from the CPU's features, so it runs AVX-512 where Debian 12's OpenBLAS 0.3.21 (ATen's GEMMs) falls back to
// AVX2 on AMD Zen 5, much slower on these small shapes (the top CMakeLists.txt; docs/speed.md, "Speed"). Without
// oneDNN, ATen's mm on views of the same memory. Torch-free header.
#include <cstdint>

namespace milab {

// 'N' or 'T' for each operand. A is stored [m, k] ('N') or [k, m] ('T'), B [k, n] ('N') or [n, k] ('T'), all
// contiguous; beta is 0 (C overwritten, whatever it held) or 1 (added to).
void sgemm(char transA, char transB, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float beta,
           float* c);

// Whether sgemm goes through oneDNN (false: ATen's mm).
bool sgemmThroughOneDnn();

}  // namespace milab
