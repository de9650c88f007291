#include "nn/separable_cpu_pass.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "nn/fusable.h"
#include "nn/sgemm.h"
#include "nn/target_clones.h"

namespace milab {

namespace {

const float* data(const at::Tensor& t) { return t.data_ptr<float>(); }
float* data(at::Tensor& t) { return t.data_ptr<float>(); }

bool fusableModule(Mlp& mlp) {
  for (const at::Tensor& p : mlp->parameters())
    if (!fusable(p) || !p.grad().defined() || !fusable(p.grad())) return false;
  return true;
}

// out[i][j] += bias[j], then ReLU when asked: the Linear layer's bias and MlpImpl's relu_. Branch-free selects, so
// the loops vectorise (a branch on the sign mispredicts on half the units).
MILAB_CLONED_FOR_AVX2 void addBias(float* out, const float* bias, int64_t rows, int64_t cols, bool relu) {
  for (int64_t i = 0; i < rows; ++i) {
    float* row = out + i * cols;
    if (relu)
      for (int64_t j = 0; j < cols; ++j) row[j] = std::max(row[j] + bias[j], 0.f);
    else
      for (int64_t j = 0; j < cols; ++j) row[j] += bias[j];
  }
}

// relu_'s threshold_backward: no gradient where the unit was off.
MILAB_CLONED_FOR_AVX2 void maskOffUnits(float* grad, const float* activation, int64_t n) {
  for (int64_t i = 0; i < n; ++i) grad[i] = activation[i] > 0 ? grad[i] : 0.f;
}

// sums[j] = sum_i in[i][j]: a Linear layer's bias gradient.
MILAB_CLONED_FOR_AVX2 void columnSums(const float* in, int64_t rows, int64_t cols, float* sums) {
  for (int64_t j = 0; j < cols; ++j) sums[j] = 0;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) sums[j] += in[i * cols + j];
}

}  // namespace

bool SeparableCpuPass::takes(Mlp& f, Mlp& g, const at::Tensor& xs, const at::Tensor& ys) {
  return xs.dim() == 2 && ys.dim() == 2 && xs.size(0) == ys.size(0) &&  // a square score matrix: its buffers
         fusable(xs) && fusable(ys) && fusableModule(f) && fusableModule(g);
}

void SeparableCpuPass::reserve(int64_t rows, int64_t hidden, int64_t embed) {
  if (rows == rows_ && x_.hidden.defined() && x_.hidden.size(1) == hidden && x_.output.size(1) == embed) return;
  const at::TensorOptions floats = at::TensorOptions(at::kFloat);
  for (Side* side : {&x_, &y_}) {
    side->hidden = at::empty({rows, hidden}, floats);
    side->gradHidden = at::empty({rows, hidden}, floats);
    side->output = at::empty({rows, embed}, floats);
    side->gradOutput = at::empty({rows, embed}, floats);
  }
  scores_ = at::empty({rows, rows}, floats);
  rows_ = rows;
}

void SeparableCpuPass::forwardSide(Mlp& mlp, const at::Tensor& input, Side& side) {
  const int64_t rows = input.size(0), hidden = side.hidden.size(1), embed = side.output.size(1);
  side.input = data(input);
  side.inputDim = input.size(1);
  sgemm('N', 'T', rows, hidden, side.inputDim, side.input, data(mlp->input->weight), 0.f, data(side.hidden));
  addBias(data(side.hidden), data(mlp->input->bias), rows, hidden, true);
  sgemm('N', 'T', rows, embed, hidden, data(side.hidden), data(mlp->output->weight), 0.f, data(side.output));
  addBias(data(side.output), data(mlp->output->bias), rows, embed, false);
}

const at::Tensor& SeparableCpuPass::forward(Mlp& f, Mlp& g, const at::Tensor& xs, const at::Tensor& ys) {
  reserve(xs.size(0), f->input->weight.size(0), f->output->weight.size(0));
  forwardSide(f, xs, x_);
  forwardSide(g, ys, y_);
  sgemm('N', 'T', rows_, rows_, x_.output.size(1), data(x_.output), data(y_.output), 0.f, data(scores_));
  return scores_;
}

void SeparableCpuPass::backwardSide(Mlp& mlp, Side& side) {
  const int64_t rows = rows_, hidden = side.hidden.size(1), embed = side.output.size(1);
  at::Tensor w1 = mlp->input->weight.mutable_grad(), b1 = mlp->input->bias.mutable_grad();
  at::Tensor w2 = mlp->output->weight.mutable_grad(), b2 = mlp->output->bias.mutable_grad();
  sgemm('T', 'N', embed, hidden, rows, data(side.gradOutput), data(side.hidden), 0.f, data(w2));
  columnSums(data(side.gradOutput), rows, embed, data(b2));
  sgemm('N', 'N', rows, hidden, embed, data(side.gradOutput), data(mlp->output->weight), 0.f, data(side.gradHidden));
  float* gradHidden = data(side.gradHidden);
  maskOffUnits(gradHidden, data(side.hidden), rows * hidden);
  sgemm('T', 'N', hidden, side.inputDim, rows, gradHidden, side.input, 0.f, data(w1));
  columnSums(gradHidden, rows, hidden, data(b1));
}

void SeparableCpuPass::backward(Mlp& f, Mlp& g, const at::Tensor& gradScores) {
  const int64_t embed = x_.output.size(1);
  const float* gradS = data(gradScores);
  sgemm('N', 'N', rows_, embed, rows_, gradS, data(y_.output), 0.f, data(x_.gradOutput));  // dS g(y)
  sgemm('T', 'N', rows_, embed, rows_, gradS, data(x_.output), 0.f, data(y_.gradOutput));  // dS^T f(x)
  backwardSide(f, x_);
  backwardSide(g, y_);
}

}  // namespace milab
