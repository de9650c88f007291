#include "candidate_nce.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "nn/fusable.h"
#include "nn/sgemm.h"
#include "nn/target_clones.h"

namespace milab {

namespace {

// Rows per block: the block's pre-activation (rows x C x H floats) kept near 128 KB, inside a core's L2.
int64_t rowsPerBlock(int64_t candidates, int64_t hidden) {
  return std::max<int64_t>(1, (32 * 1024) / std::max<int64_t>(1, candidates * hidden));
}

// What one row's pass reads besides its units.
struct CandidateRow {
  const float* row;   // [H], the row's folded output layer
  const float* bias;  // [H], the layer's
  float offset, positive;
  int64_t candidates, hidden;
  float perRow;  // 1 / B
};

// Cloned for x86-64-v3 (AVX2, FMA) beside the baseline (nn/target_clones.h).
// One row: its candidates' scores and log-softmax, then the backward, on the row's [C, H] units (in: W y; out:
// the gradient of the pre-activation). Returns the row's log-softmax at the positive.
MILAB_CLONED_FOR_AVX2 double candidateRow(const CandidateRow& in, float* units, float* scores, float* gradRow,
                                          float* gradBias, float& gradPositive, float& gradOffset) {
  const int64_t c = in.candidates, h = in.hidden;
  const float *row = in.row, *c1 = in.bias;
  // Forward: relu(W y + c) in place, each negative's score.
  scores[0] = in.positive;
  for (int64_t j = 0; j < c; ++j) {
    float* unit = units + j * h;
    float sum = 0.f;
#pragma omp simd reduction(+ : sum)
    for (int64_t k = 0; k < h; ++k) {
      const float v = unit[k] + c1[k] > 0.f ? unit[k] + c1[k] : 0.f;
      unit[k] = v;
      sum += v * row[k];
    }
    scores[j + 1] = sum + in.offset;
  }
  // The row's log-softmax: its value at the positive, and the gradient of -value / B, softmax - onehot(0).
  const float top = *std::max_element(scores, scores + c + 1);
  float total = 0.f;
  for (int64_t j = 0; j <= c; ++j) total += scores[j] = std::exp(scores[j] - top);  // now the unnormalised shares
  const float toGradient = in.perRow / total;  // softmax_j / B = share_j * toGradient
  gradPositive = scores[0] * toGradient - in.perRow;
  // Backward: the row's gradient sum_j g_j h_j, and in place of h the pre-activation's g_j row where h > 0.
  std::fill(gradRow, gradRow + h, 0.f);
  float offsetGradient = 0.f;
  for (int64_t j = 0; j < c; ++j) {
    const float g = scores[j + 1] * toGradient;
    offsetGradient += g;
    float* unit = units + j * h;
#pragma omp simd
    for (int64_t k = 0; k < h; ++k) {
      const float v = unit[k], through = g * row[k];  // both read unconditionally: the select vectorises
      gradRow[k] += g * v;
      const float pre = v > 0.f ? through : 0.f;
      unit[k] = pre;
      gradBias[k] += pre;
    }
  }
  gradOffset = offsetGradient;
  return static_cast<double>(in.positive) - (static_cast<double>(top) + std::log(static_cast<double>(total)));
}

}  // namespace

std::optional<CandidateNce> fusedCandidateNce(const at::Tensor& weight, const at::Tensor& bias, const at::Tensor& rows,
                                              const at::Tensor& offsets, const at::Tensor& positive,
                                              const at::Tensor& negatives) {
  if (!sgemmThroughOneDnn()) return std::nullopt;  // ATen's ops then (candidate_nce.h says why)
  for (const at::Tensor* t : {&weight, &bias, &rows, &offsets, &positive, &negatives})
    if (!fusable(*t)) return std::nullopt;
  const int64_t b = negatives.size(0), c = negatives.size(1), d = negatives.size(2), h = weight.size(0);
  const at::TensorOptions options = rows.options();
  CandidateNce out{
      at::empty({}, options), at::empty({b}, options), at::empty({b, h}, options), at::empty({b}, options), {},
      at::zeros({h}, options)};
  // The weight and its gradient as [d, H], the layout the GEMMs read fastest (measured with OpenBLAS against W [H, d]
  // transposed in the call: docs/speed.md, "Speed"; the weight's copy is 2,000 floats).
  const at::Tensor weightT = weight.t().contiguous(), gradientT = at::zeros({d, h}, options);
  const float *wT = weightT.data_ptr<float>(), *c1 = bias.data_ptr<float>(), *r = rows.data_ptr<float>();
  const float *o = offsets.data_ptr<float>(), *p = positive.data_ptr<float>(), *y = negatives.data_ptr<float>();
  float *gradPositive = out.gradPositive.data_ptr<float>(), *gradRows = out.gradRows.data_ptr<float>();
  float *gradOffsets = out.gradOffsets.data_ptr<float>(), *gradWeightT = gradientT.data_ptr<float>();
  float* gradBias = out.gradBias.data_ptr<float>();
  const int64_t block = rowsPerBlock(c, h);
  // The block's pre-activation, then its gradient (uninitialised: every element is written before it is read).
  const at::Tensor unitsBuffer = at::empty({block * c * h}, options);
  float* units = unitsBuffer.data_ptr<float>();
  std::vector<float> scores(static_cast<size_t>(c + 1));
  const float perRow = 1.f / static_cast<float>(b);
  double valueSum = 0;
  for (int64_t first = 0; first < b; first += block) {
    const int64_t count = std::min(block, b - first), n = count * c;
    const float* blockY = y + first * c * d;
    // The pre-activation of the block's negatives, W y (the bias below): [n, H].
    sgemm('N', 'N', n, h, d, blockY, wT, 0.f, units);
    for (int64_t i = first; i < first + count; ++i)
      valueSum += candidateRow({r + i * h, c1, o[i], p[i], c, h, perRow}, units + (i - first) * c * h, scores.data(),
                               gradRows + i * h, gradBias, gradPositive[i], gradOffsets[i]);
    // The weight's gradient through the block, transposed: y^T (d/dpre), added.
    sgemm('T', 'N', d, h, n, blockY, units, 1.f, gradWeightT);
  }
  out.gradWeight = gradientT.t().contiguous();
  out.value.fill_(valueSum / static_cast<double>(b) + std::log(static_cast<double>(c + 1)));
  return out;
}

}  // namespace milab
