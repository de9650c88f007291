// SeparableCritic::trainOnScores and trainInBatchNce: the separable critic's training step with its backward
// written out, for every bound of a score matrix.
//
// Why: at the batch sizes people train these bounds with (K = 32..512) a step is a few dozen small operations, and
// autograd's own work (recording a graph node per operation, saving tensors, accumulating each gradient into a
// zeroed buffer) costs about as much as the arithmetic. Here the networks run without a graph and their backward
// is written out; only the bound's own few operations on the [K, K] scores go through autograd (a closed form for
// InfoNCE). On contiguous CPU floats the networks' pass is SeparableCpuPass (oneDNN's GEMMs, buffers kept); on a
// GPU or in double it makes exactly the calls autograd's derivative formulas make in this LibTorch (1.13:
// addmm/mm backward, threshold_backward for relu_, _log_softmax_backward_data, sum_to for a broadcast bias), so
// there a step is autograd's to the bit. Both are checked against the autograd step in test_separable_step.
#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "nn/fusable.h"
#include "nn/mlp_backward.h"
#include "nn/separable_critic.h"
#include "nn/softmax_rows.h"

namespace milab {

ScoresBackward scoresBackwardByAutograd(const std::function<at::Tensor(const at::Tensor&)>& objective,
                                        const at::Tensor& scores) {
  c10::AutoGradMode graph(true);
  const at::Tensor leaf = scores.detach().requires_grad_(true);
  const at::Tensor value = objective(leaf);
  value.neg().backward();
  return {value.detach(), leaf.grad()};
}

at::Tensor SeparableCritic::trainOnScores(const at::Tensor& xs, const at::Tensor& ys,
                                          const ScoresObjective& objective) {
  const at::Tensor value = writeGradients(xs, ys, objective);
  adam_->step();
  return value;
}

at::Tensor SeparableCritic::writeGradients(const at::Tensor& xs, const at::Tensor& ys,
                                           const ScoresObjective& objective) {
  ScoresBackward bound;
  if (SeparableCpuPass::takes(f_, g_, xs, ys)) {
    bound = objective(cpuPass_.forward(f_, g_, xs, ys));
    cpuPass_.backward(f_, g_, bound.gradScores.contiguous());
  } else {
    MlpPass fx, gy;
    {
      c10::NoGradGuard noGraph;
      fx = mlpForward(f_, xs);
      gy = mlpForward(g_, ys);
    }
    bound = objective(fx.output.mm(gy.output.t()));  // what scores(xs, ys) computes
    c10::NoGradGuard noGraph;
    // MmBackward: mat1 = f(x) row-major: grad . mat2^T = grad . g(y); mat2 = g(y)^T column-major: (grad^T f(x))^T,
    // transposed back by TBackward to grad^T . f(x).
    mlpBackward(f_, fx, bound.gradScores.mm(gy.output));
    mlpBackward(g_, gy, bound.gradScores.t().mm(fx.output));
  }
  return bound.objective;
}

at::Tensor SeparableCritic::trainInBatchNce(const at::Tensor& xs, const at::Tensor& ys) {
  return trainOnScores(xs, ys, [this](const at::Tensor& scores) { return inBatchNceBackward(scores); });
}

ScoresBackward SeparableCritic::inBatchNceBackward(const at::Tensor& scores) {
  c10::NoGradGuard noGraph;
  const int64_t k = scores.size(0);
  if (fusable(scores) && scores.size(1) == k) {  // CPU floats: one pass per row (nn/softmax_rows)
    if (!rowsGradient_.defined() || rowsGradient_.size(0) != k) rowsGradient_ = at::empty_like(scores);
    const double sum = inBatchNceRows(scores.data_ptr<float>(), k, rowsGradient_.data_ptr<float>());
    return {at::scalar_tensor(sum / static_cast<double>(k) + std::log(static_cast<double>(k)), scores.options()),
            rowsGradient_};
  }
  const at::Tensor logSoftmax = at::log_softmax(scores, 1);
  // d(-objective)/d(logSoftmax): zeros with -1/K on the diagonal, as NegBackward, MeanBackward (grad expanded,
  // divided by numel) and DiagonalBackward (zeros, the diagonal copied in) build it. The same every step for one K.
  if (!diagonalSeed_.defined() || diagonalSeed_.size(0) != k || diagonalSeed_.device() != scores.device() ||
      diagonalSeed_.scalar_type() != scores.scalar_type()) {
    const at::Tensor perRow = at::ones({}, scores.options()).neg().expand({k}) / k;
    diagonalSeed_ = at::zeros({k, k}, scores.options());
    diagonalSeed_.diagonal().copy_(perRow);
  }
  return {logSoftmax.diagonal().mean() + std::log(static_cast<double>(k)),  // inBatchNce
          at::_log_softmax_backward_data(diagonalSeed_, logSoftmax, 1, scores.scalar_type())};
}

}  // namespace milab
