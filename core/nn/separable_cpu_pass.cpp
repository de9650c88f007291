#include "nn/separable_cpu_pass.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "nn/bias_sums.h"
#include "nn/fusable.h"
#include "nn/sgemm.h"
#include "nn/target_clones.h"

namespace milab {

namespace {

const float* data(const at::Tensor& t) { return t.data_ptr<float>(); }
float* data(at::Tensor& t) { return t.data_ptr<float>(); }

// The four tensors the pass reads, named directly: Module::parameters() builds a keyed list of them, a dozen
// allocations, and this runs every step.
bool fusableModule(Mlp& mlp) {
  for (const at::Tensor* p : {&mlp->input->weight, &mlp->input->bias, &mlp->output->weight, &mlp->output->bias})
    if (!fusable(*p) || !p->grad().defined() || !fusable(p->grad())) return false;
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

// outT[j][i] += bias[j] for outT [cols, rows]: addBias on the transposed layout.
MILAB_CLONED_FOR_AVX2 void addBiasTransposed(float* outT, const float* bias, int64_t rows, int64_t cols) {
  for (int64_t j = 0; j < cols; ++j) {
    float* row = outT + j * rows;
    for (int64_t i = 0; i < rows; ++i) row[i] += bias[j];
  }
}

}  // namespace

bool SeparableCpuPass::takes(Mlp& f, Mlp& g, const at::Tensor& xs, const at::Tensor& ys) {
  return xs.dim() == 2 && ys.dim() == 2 && xs.size(0) == ys.size(0) &&  // a square score matrix: its buffers
         fusable(xs) && fusable(ys) && fusableModule(f) && fusableModule(g);
}

void SeparableCpuPass::reserve(int64_t rows, int64_t hidden, int64_t embed) {
  if (rows == rows_ && x_.hidden.defined() && x_.hidden.size(1) == hidden && x_.outputT.size(0) == embed) return;
  const at::TensorOptions floats = at::TensorOptions(at::kFloat);
  for (Side* side : {&x_, &y_}) {
    side->hidden = at::empty({rows, hidden}, floats);
    side->gradHidden = at::empty({rows, hidden}, floats);
    side->outputT = at::empty({embed, rows}, floats);
    side->gradOutputT = at::empty({embed, rows}, floats);
  }
  scores_ = at::empty({rows, rows}, floats);
  rows_ = rows;
}

void SeparableCpuPass::forwardSide(Mlp& mlp, const at::Tensor& input, Side& side) {
  const int64_t rows = input.size(0), hidden = side.hidden.size(1), embed = side.outputT.size(0);
  side.input = data(input);
  side.inputDim = input.size(1);
  sgemm('N', 'T', rows, hidden, side.inputDim, side.input, data(mlp->input->weight), 0.f, data(side.hidden));
  addBias(data(side.hidden), data(mlp->input->bias), rows, hidden, true);
  // The output layer transposed, W2 h^T: [E, K] (see the header).
  sgemm('N', 'T', embed, rows, hidden, data(mlp->output->weight), data(side.hidden), 0.f, data(side.outputT));
  addBiasTransposed(data(side.outputT), data(mlp->output->bias), rows, embed);
}

const at::Tensor& SeparableCpuPass::forward(Mlp& f, Mlp& g, const at::Tensor& xs, const at::Tensor& ys) {
  reserve(xs.size(0), f->input->weight.size(0), f->output->weight.size(0));
  forwardSide(f, xs, x_);
  forwardSide(g, ys, y_);
  sgemm('T', 'N', rows_, rows_, x_.outputT.size(0), data(x_.outputT), data(y_.outputT), 0.f, data(scores_));
  return scores_;
}

void SeparableCpuPass::backwardSide(Mlp& mlp, Side& side) {
  const int64_t rows = rows_, hidden = side.hidden.size(1), embed = side.outputT.size(0);
  at::Tensor w1 = mlp->input->weight.mutable_grad(), b1 = mlp->input->bias.mutable_grad();
  at::Tensor w2 = mlp->output->weight.mutable_grad(), b2 = mlp->output->bias.mutable_grad();
  const float* gradOutputT = data(side.gradOutputT);
  sgemm('N', 'N', embed, hidden, rows, gradOutputT, data(side.hidden), 0.f, data(w2));  // dO^T h
  columnSumsOfTransposed(gradOutputT, rows, embed, data(b2));
  sgemm('T', 'N', rows, hidden, embed, gradOutputT, data(mlp->output->weight), 0.f, data(side.gradHidden));  // dO W2
  float* gradHidden = data(side.gradHidden);
  maskOffUnits(gradHidden, data(side.hidden), rows * hidden);
  sgemm('T', 'N', hidden, side.inputDim, rows, gradHidden, side.input, 0.f, data(w1));
  columnSums(gradHidden, rows, hidden, data(b1));
}

void SeparableCpuPass::backward(Mlp& f, Mlp& g, const at::Tensor& gradScores) {
  const int64_t embed = x_.outputT.size(0);
  const float* gradS = data(gradScores);
  sgemm('N', 'T', embed, rows_, rows_, data(y_.outputT), gradS, 0.f, data(x_.gradOutputT));  // (dS g(y))^T
  sgemm('N', 'N', embed, rows_, rows_, data(x_.outputT), gradS, 0.f, data(y_.gradOutputT));  // (dS^T f(x))^T
  backwardSide(f, x_);
  backwardSide(g, y_);
}

}  // namespace milab
