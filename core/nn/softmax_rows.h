#pragma once
// InfoNCE's value and its gradient at a float score matrix in one pass over each row, for the written-out CPU step
// (nn/separable_step). In a translation unit of its own because it is compiled with -ffast-math, what makes
// glibc's math.h declare the vector expf (libmvec) that the row loops call: the log-softmax and its backward through
// ATen exponentiate every score twice, a sizeable part of InfoNCE's step at K = 128 (docs/speed.md, "Speed").
// Torch-free.
#include <cstdint>

namespace milab {

// For scores [k, k] (row-major, contiguous): grad[i][j] = (softmax_i(j) - [i == j]) / k, the gradient of
// -inBatchNce, and the return value sum_i log_softmax_i(i) in double (inBatchNce = it / k + log k). A NaN or an
// infinity among the scores carries into the row's sum even under -ffast-math (test_separable_step reads it), so the
// return value is non-finite where the log-softmax's is and the run stops with its reason.
double inBatchNceRows(const float* scores, int64_t k, float* grad);

// log sum_j exp(s[j]) over one row of k floats, through `scratch` (k floats): the joint critic's held-out InfoNCE
// reading row by row (nn/joint_cpu_pass), where the whole N x N score matrix would take 100 MB at N = 5,000.
float logSumExp(const float* s, int64_t k, float* scratch);

}  // namespace milab
