#include "candidate_scores.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "nn/fusable.h"

namespace milab {

namespace {

// The fused passes run on contiguous float tensors on a CPU; `scores`-like views need contiguous rows only. The
// loops are plain C++ that the compiler vectorises for the baseline instruction set (SSE2 on x86-64, so the digits
// are the same on every such machine): CMakeLists.txt compiles this file with -fopenmp-simd (the `omp simd`
// pragmas, no OpenMP runtime) and -fno-trapping-math (without it GCC keeps the relu's select as a branch, which
// mispredicts on half the units: many times slower at DEMI's K = 128, docs/speed.md, "Speed").
bool rowsContiguous(const at::Tensor& t) {
  return t.is_cpu() && t.scalar_type() == at::kFloat && t.dim() == 2 && t.stride(1) == 1 && !cpuTakesDeviceRoute();
}

}  // namespace

void scoreReluCandidates(at::Tensor& preActivation, const at::Tensor& rows, const at::Tensor& offsets,
                         at::Tensor& scores) {
  const int64_t b = preActivation.size(0), c = preActivation.size(1), h = preActivation.size(2);
  if (!(fusable(preActivation) && fusable(rows) && fusable(offsets) && rowsContiguous(scores))) {
    preActivation.relu_();
    at::sum_out(scores, preActivation * rows.unsqueeze(1), {2});
    scores.add_(offsets.unsqueeze(1));
    return;
  }
  float* z = preActivation.data_ptr<float>();
  const float* r = rows.data_ptr<float>();
  const float* o = offsets.data_ptr<float>();
  float* s = scores.data_ptr<float>();
  for (int64_t i = 0; i < b; ++i) {
    const float* row = r + i * h;
    for (int64_t j = 0; j < c; ++j) {
      float* unit = z + (i * c + j) * h;
      float sum = 0.f;
#pragma omp simd reduction(+ : sum)
      for (int64_t k = 0; k < h; ++k) {
        const float v = unit[k] > 0.f ? unit[k] : 0.f;
        unit[k] = v;
        sum += v * row[k];
      }
      s[i * scores.stride(0) + j] = sum + o[i];
    }
  }
}

at::Tensor scoreReluCandidatesBackward(const at::Tensor& gradScores, const at::Tensor& hidden, const at::Tensor& rows,
                                       at::Tensor& gradRows) {
  const int64_t b = hidden.size(0), c = hidden.size(1), h = hidden.size(2);
  if (!(fusable(hidden) && fusable(rows) && fusable(gradRows) && rowsContiguous(gradScores))) {
    at::sum_out(gradRows, hidden * gradScores.unsqueeze(2), {1});
    // d/dh through relu: zero where the unit was off (h = 0), as threshold_backward reads relu's result.
    return at::threshold_backward(gradScores.unsqueeze(2) * rows.unsqueeze(1), hidden, 0).reshape({b * c, h});
  }
  at::Tensor gradPre = at::empty({b * c, h}, hidden.options());
  const float* hp = hidden.data_ptr<float>();
  const float* r = rows.data_ptr<float>();
  const float* gs = gradScores.data_ptr<float>();
  float* gr = gradRows.data_ptr<float>();
  float* gp = gradPre.data_ptr<float>();
  for (int64_t i = 0; i < b; ++i) {
    const float* row = r + i * h;
    float* gradRow = gr + i * h;
    std::fill(gradRow, gradRow + h, 0.f);
    for (int64_t j = 0; j < c; ++j) {
      const float g = gs[i * gradScores.stride(0) + j];
      const float* unit = hp + (i * c + j) * h;
      float* gradUnit = gp + (i * c + j) * h;
#pragma omp simd
      for (int64_t k = 0; k < h; ++k) {
        const float v = unit[k], through = g * row[k];  // both read unconditionally: the select vectorises
        gradRow[k] += g * v;
        gradUnit[k] = v > 0.f ? through : 0.f;
      }
    }
  }
  return gradPre;
}

}  // namespace milab
