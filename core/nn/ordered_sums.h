#pragma once
// A sum of floats in one fixed order, for the softmax rows (nn/softmax_rows): compiled without -ffast-math, so the
// order written here is the order added, whatever the vector width of the loop that made the terms. Torch-free.
#include <cstdint>

namespace milab {

// sum of v[0..n): eight running sums, lane l adding v[l], v[l + 8], ... in turn, the tail (n mod 8 terms) added to
// lane 0, then ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)). This is the order GCC's 8-lane vectorisation of
// an `omp simd` reduction gave the softmax rows when their exponentials were summed in the same loop (their AVX2
// build, read from its machine code): kept, so that splitting the loop left every sum, and so every seeded run, as
// it was.
float eightLaneSum(const float* v, int64_t n);

}  // namespace milab
