// SeparableCritic::trainDemi: DEMI's training step (I_NCE(x';y) + I_CNCE(x;y|x'), DEMI paper eq. 2 and 6, with
// negatives from the true p(y|x')) with its backward pass written out.
//
// Why: the conditional term scores K/2 - 1 negatives per row, and its [B, C, H] activation dominates the step.
// Autograd spends most of that time in shapes BLAS does badly: the score r . relu(W1 y + b1) per candidate was a
// batched matrix-vector product (bmm with one column, 3x slower than an elementwise product and sum over this
// machine's [64, 63, 100]), and its backward two more. Here the step makes no graph, takes one pass of f over the
// stacked inputs [x', 0] and [x', x], scores the candidates by an elementwise product and sum, fuses the relu mask
// into the gradient, and writes each gradient straight into the optimiser's flat buffer. The arithmetic is
// autograd's up to the order of float additions, so the step is autograd's to rounding, not to the bit: checked in
// test_step_loop (one step's gradients, and the readings over many steps).
#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "nn/candidate_scores.h"
#include "nn/mlp_backward.h"
#include "nn/separable_critic.h"

namespace milab {

namespace {

// d(-mean_i log_softmax(s)_i,target(i))/ds = (softmax(s) - onehot(target)) / rows, from the log-softmax itself
// (overwritten). `target` is the diagonal (in-batch) or column 0 (explicit candidates).
at::Tensor nceScoreGradient(at::Tensor logSoftmax, bool diagonalTarget) {
  const int64_t rows = logSoftmax.size(0);
  at::Tensor grad = logSoftmax.exp_();
  (diagonalTarget ? grad.diagonal() : grad.select(1, 0)).sub_(1);
  return grad.div_(static_cast<double>(rows));
}

}  // namespace

SeparableCritic::DemiTerms SeparableCritic::trainDemi(const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y,
                                                      const at::Tensor& negatives) {
  c10::NoGradGuard noGraph;
  const int64_t b = xp.size(0), c = negatives.size(1), d = negatives.size(2);
  // f over [x', 0] (rows 0..B-1) and [x', x] (rows B..2B-1) in one pass.
  const at::Tensor fInput = at::cat({at::cat({xp, at::zeros_like(x)}, 1), at::cat({xp, x}, 1)}, 0);
  const MlpPass f = mlpForward(f_, fInput), gy = mlpForward(g_, y);
  const at::Tensor fSubview = f.output.narrow(0, 0, b), fBoth = f.output.narrow(0, b, b), gY = gy.output;

  // I_NCE(x';y): in-batch scores psi = f([x', 0]) . g(y).
  at::Tensor logSoftmaxU = at::log_softmax(fSubview.mm(gY.t()), 1);
  const at::Tensor unconditional = logSoftmaxU.diagonal().mean() + std::log(static_cast<double>(b));

  // I_CNCE(x;y|x'): column 0 the positive phi = f([x', x]) . g(y), then the negatives scored through g's first
  // layer only: r . (W2 h + b2) = (r W2) . h + r . b2 (MlpImpl::dotWithRows).
  const torch::nn::Linear& gIn = g_->input;
  const torch::nn::Linear& gOut = g_->output;
  const at::Tensor flatNegatives = negatives.reshape({b * c, d});
  at::Tensor hidden = linearForward(gIn, flatNegatives).view({b, c, -1});  // [B, C, H], relu applied below
  const at::Tensor folded = fBoth.mm(gOut->weight);                        // [B, H]
  const at::Tensor offset = fBoth.mv(gOut->bias);                          // [B]
  at::Tensor candidates = at::empty({b, c + 1}, hidden.options());
  at::Tensor positive = candidates.select(1, 0), negative = candidates.narrow(1, 1, c);
  at::sum_out(positive, fBoth * gY, {1});
  scoreReluCandidates(hidden, folded, offset, negative);
  at::Tensor logSoftmaxC = at::log_softmax(candidates, 1);
  const at::Tensor conditional = logSoftmaxC.select(1, 0).mean() + std::log(static_cast<double>(c + 1));

  // Backward of -(unconditional + conditional).
  const at::Tensor gradU = nceScoreGradient(logSoftmaxU, true), gradC = nceScoreGradient(logSoftmaxC, false);
  const at::Tensor gradPositive = gradC.narrow(1, 0, 1), gradNegatives = gradC.narrow(1, 1, c);  // [B, 1], [B, C]
  at::Tensor gradFolded = at::empty_like(folded);
  const at::Tensor gradHidden = scoreReluCandidatesBackward(gradNegatives, hidden, folded, gradFolded);
  const at::Tensor gradOffset = gradNegatives.sum(1, true);  // [B, 1]

  at::Tensor gradF = at::empty_like(f.output);
  at::Tensor gradFSubview = gradF.narrow(0, 0, b);
  at::mm_out(gradFSubview, gradU, gY);
  at::Tensor gradFBoth = gradF.narrow(0, b, b);
  at::mm_out(gradFBoth, gradFolded, gOut->weight.t());
  gradFBoth.addcmul_(gradPositive, gY).add_(gradOffset * gOut->bias);
  at::Tensor gradG = gradU.t().mm(fSubview);
  gradG.addcmul_(gradPositive, fBoth);

  mlpBackward(f_, f, gradF);
  mlpBackward(g_, gy, gradG);
  // g's layers also carry the negatives: the folded output layer and the first layer over B * C candidates.
  gOut->weight.mutable_grad().addmm_(fBoth.t(), gradFolded);
  gOut->bias.mutable_grad().add_(fBoth.t().mv(gradOffset.squeeze(1)));
  linearGradients(gIn, flatNegatives, gradHidden, GradientWrite::accumulate);
  adam_->step();
  return {unconditional, conditional};
}

}  // namespace milab
