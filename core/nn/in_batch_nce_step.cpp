// SeparableCritic::trainInBatchNce: InfoNCE's training step with its backward pass written out.
//
// Why: at the batch sizes people train InfoNCE with (K = 64..512) a step is a few dozen small operations, and
// autograd's own work (recording a graph node per operation, saving tensors, accumulating each gradient into a
// zeroed buffer, building the constant gradient of the mean of a diagonal) costs about as much as the arithmetic.
// Here the forward runs without a graph and the backward makes exactly the calls autograd's derivative formulas
// make in this LibTorch (1.13: addmm/mm backward, threshold_backward for relu_, _log_softmax_backward_data,
// sum_to for a broadcast bias), writing each gradient straight into the optimiser's flat buffer. Same calls, same
// arguments, same layouts: the same bits, checked against the autograd step in test_step_loop.
#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "nn/mlp_backward.h"
#include "nn/separable_critic.h"

namespace milab {

at::Tensor SeparableCritic::trainInBatchNce(const at::Tensor& xs, const at::Tensor& ys) {
  c10::NoGradGuard noGraph;
  const MlpPass fx = mlpForward(f_, xs), gy = mlpForward(g_, ys);
  const at::Tensor scores = fx.output.mm(gy.output.t());  // what scores(xs, ys) computes
  const at::Tensor logSoftmax = at::log_softmax(scores, 1);
  const int64_t k = scores.size(0);
  const at::Tensor objective = logSoftmax.diagonal().mean() + std::log(static_cast<double>(k));  // inBatchNce

  // d(-objective)/d(logSoftmax): zeros with -1/K on the diagonal, as NegBackward, MeanBackward (grad expanded,
  // divided by numel) and DiagonalBackward (zeros, the diagonal copied in) build it. The same every step for one K.
  if (!diagonalSeed_.defined() || diagonalSeed_.size(0) != k || diagonalSeed_.device() != scores.device()) {
    const at::Tensor perRow = at::ones({}, scores.options()).neg().expand({k}) / k;
    diagonalSeed_ = at::zeros({k, k}, scores.options());
    diagonalSeed_.diagonal().copy_(perRow);
  }
  const at::Tensor gradScores = at::_log_softmax_backward_data(diagonalSeed_, logSoftmax, 1, scores.scalar_type());
  // MmBackward: mat1 = f(x) row-major: grad . mat2^T = grad . g(y); mat2 = g(y)^T column-major: (grad^T f(x))^T,
  // transposed back by TBackward to grad^T . f(x).
  const at::Tensor gradFx = gradScores.mm(gy.output), gradGy = gradScores.t().mm(fx.output);
  mlpBackward(f_, fx, gradFx);
  mlpBackward(g_, gy, gradGy);
  adam_->step();
  return objective;
}

}  // namespace milab
