#include "nn/bounds.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>

namespace milab {

at::Tensor inBatchNce(const at::Tensor& scores) {
  return at::log_softmax(scores, 1).diagonal().mean() + std::log(static_cast<double>(scores.size(1)));
}

at::Tensor firstColumnNce(const at::Tensor& scores) {
  return at::log_softmax(scores, 1).select(1, 0).mean() + std::log(static_cast<double>(scores.size(1)));
}

at::Tensor positiveFirst(const at::Tensor& scores) {
  // Row i becomes [s_ii, s_i0, ..., s_i(i-1), s_i(i+1), ...] by a gather whose index is built on the scores' device:
  // masked_select, which did this, reads its mask's count on the host, a device sync every DEMI-IS/-BO step.
  // The same elements in the same order, so the values and gradients are those of the masked form to the bit.
  const int64_t n = scores.size(0);
  const at::TensorOptions longs = scores.options().dtype(at::kLong);
  const at::Tensor row = at::arange(n, longs).unsqueeze(1), column = at::arange(scores.size(1), longs).unsqueeze(0);
  const at::Tensor before = column - 1;  // column c >= 1 holds j = c - 1 below the diagonal, c above it
  at::Tensor index = at::where(before < row, before, column);
  index.select(1, 0).copy_(row.squeeze(1));
  return scores.gather(1, index);
}

at::Tensor importanceSampledNce(const at::Tensor& phi, const at::Tensor& psi) {
  const int64_t c = phi.size(1);
  const at::Tensor positive = phi.select(1, 0);
  const at::Tensor phiNeg = phi.narrow(1, 1, c - 1), psiNeg = psi.narrow(1, 1, c - 1);
  // log sum_k w_k e^phi_k = logsumexp(psi + phi) - logsumexp(psi), over the negatives
  const at::Tensor logWeighted = at::logsumexp(psiNeg + phiNeg, 1) - at::logsumexp(psiNeg, 1);
  const at::Tensor logDenominator = at::logaddexp(positive, logWeighted + std::log(double(c - 1)));
  return (positive - logDenominator).mean() + std::log(double(c));
}

at::Tensor logMeanExpOffDiagonal(const at::Tensor& scores) {
  const int64_t n = scores.size(0);
  const at::Tensor mask = at::eye(n, scores.options().dtype(at::kBool));
  const at::Tensor offDiagonal = scores.masked_fill(mask, -std::numeric_limits<double>::infinity());
  return at::logsumexp(offDiagonal.flatten(), 0) - std::log(static_cast<double>(n * (n - 1)));
}

at::Tensor tubaBound(const at::Tensor& scores) {
  return 1.0 + scores.diagonal().mean() - logMeanExpOffDiagonal(scores).exp();
}

at::Tensor nwjBound(const at::Tensor& scores) { return tubaBound(scores - 1.0); }

at::Tensor dvBound(const at::Tensor& scores) { return scores.diagonal().mean() - logMeanExpOffDiagonal(scores); }

at::Tensor dvOnPairs(const at::Tensor& joint, const at::Tensor& marginal) {
  return joint.mean() - (marginal.logsumexp(0) - std::log(double(marginal.size(0))));
}

at::Tensor mineObjective(const at::Tensor& scores, const at::Tensor& logAverage) {
  const at::Tensor surrogate = scores.diagonal().mean() - (logMeanExpOffDiagonal(scores) - logAverage.detach()).exp();
  return valueOfWithGradientOf(dvBound(scores), surrogate);
}

at::Tensor jsObjective(const at::Tensor& scores) {
  const int64_t n = scores.size(0);
  const at::Tensor diagonal = scores.diagonal();
  const at::Tensor joint = -at::softplus(-diagonal).mean();
  const at::Tensor marginal = (at::softplus(scores).sum() - at::softplus(diagonal).sum()) / double(n * (n - 1));
  return joint - marginal;
}

at::Tensor interpolatedBound(const at::Tensor& scores, const at::Tensor& logBaseline, double alpha) {
  const int64_t n = scores.size(0);
  // Leave-one-out log-mean-exp: loo[i][j] = log mean_{k != j} e^{s_ik}, i.e. log(sum_k e^{s_ik} - e^{s_ij})
  // - log(n-1), written with log1mexp(s_ij - lse_i). That subtraction is exact except where s_ij holds nearly all
  // of its row's mass, which only the row's largest entry can (any other has s_ij - lse_i <= -log 2): when a
  // positive beats its negatives by 16 nats or more, float32 rounds s_ij - lse_i to 0. The largest entry's
  // leave-one-out value is therefore the logsumexp of its row with that entry masked to -inf.
  const at::Tensor lse = at::logsumexp(scores, 1, true);
  const at::Tensor largest = scores.argmax(1, true);
  const at::Tensor isLargest = at::zeros_like(scores, scores.options().dtype(at::kBool)).scatter_(1, largest, true);
  const at::Tensor withoutLargest =
      at::logsumexp(scores.masked_fill(isLargest, -std::numeric_limits<double>::infinity()), 1, true);
  // The masked branch is given a harmless gap so that its gradient, multiplied by where's zero, stays finite.
  const at::Tensor gap = at::where(isLargest, at::full_like(scores, -1.0), scores - lse);
  const at::Tensor loo = at::where(isLargest, withoutLargest, lse + at::log(-at::expm1(gap))) - std::log(double(n - 1));
  // log(alpha e^loo + (1 - alpha) e^l(x_i))
  const at::Tensor baseline = at::logaddexp(loo + std::log(alpha), logBaseline.unsqueeze(1) + std::log1p(-alpha));
  // Marginal term: each row's negatives against the baseline that excludes its positive (the diagonal).
  const at::Tensor marginal = logMeanExpOffDiagonal(scores - baseline.diagonal().unsqueeze(1)).exp();
  // Joint term: the positive s_ii against the baselines that include it (off-diagonal j).
  const at::Tensor joint = scores.diagonal().unsqueeze(1) - baseline;
  const at::Tensor offDiagonalMean = (joint.sum() - joint.diagonal().sum()) / double(n * (n - 1));
  return 1.0 + offDiagonalMean - marginal;
}

at::Tensor valueOfWithGradientOf(const at::Tensor& value, const at::Tensor& gradient) {
  return gradient + (value - gradient).detach();
}

}  // namespace milab
