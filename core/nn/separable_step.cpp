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

#include "nn/mlp_backward.h"
#include "nn/separable_critic.h"

namespace milab {

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

ScoresBackward SeparableCritic::inBatchNceBackward(const at::Tensor& scores) { return inBatchNce_(scores); }

}  // namespace milab
