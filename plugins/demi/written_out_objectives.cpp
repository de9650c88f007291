// The objectives' values and gradients for the written-out steps (written_out_objectives.h says what each is).
#include "written_out_objectives.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>

namespace milab {

namespace {

// logsumexp of each row without its diagonal entry.
at::Tensor logSumExpOffDiagonal(const at::Tensor& scores) {
  at::Tensor masked = scores.clone();
  masked.diagonal().fill_(-std::numeric_limits<double>::infinity());
  return at::logsumexp(masked, 1);
}

}  // namespace

ScoredObjective nceWithGradient(const at::Tensor& scores, NceTarget target) {
  at::Tensor logSoftmax = at::log_softmax(scores, 1);
  at::Tensor atTarget = target == NceTarget::diagonal ? logSoftmax.diagonal() : logSoftmax.select(1, 0);
  const at::Tensor value = atTarget.mean() + std::log(static_cast<double>(scores.size(1)));
  logSoftmax.exp_();  // the softmax, in place: atTarget views it
  atTarget.sub_(1);
  return {value, logSoftmax.div_(static_cast<double>(scores.size(0)))};
}

// With a_i = log sum_k w_ik e^phi_ik + log(B - 1) and D_i = logaddexp(phi_ii, a_i): value = mean_i (phi_ii - D_i)
// + log B, and the gradient of -value is -(1 - s_i) / B at phi_ii and (1 - s_i) r_ik / B at phi_ik, where
// 1 - s_i = e^(a_i - D_i) and r_ik is the softmax over k != i of psi_ik + phi_ik.
ScoredObjective importanceSampledWithGradient(const at::Tensor& psi, const at::Tensor& phi, bool withGradient) {
  const int64_t b = phi.size(0);
  at::Tensor both = psi + phi;
  both.diagonal().fill_(-std::numeric_limits<double>::infinity());
  const at::Tensor positive = phi.diagonal();
  const at::Tensor weighted = at::logsumexp(both, 1) - logSumExpOffDiagonal(psi) + std::log(double(b - 1));
  const at::Tensor denominator = at::logaddexp(positive, weighted);
  const at::Tensor value = (positive - denominator).mean() + std::log(double(b));
  if (!withGradient) return {value, {}};
  const at::Tensor negativeShare = (weighted - denominator).exp_().div_(static_cast<double>(b));  // (1 - s_i) / B
  at::Tensor gradient = at::softmax(both, 1).mul_(negativeShare.unsqueeze(1));
  gradient.diagonal().copy_(-negativeShare);
  return {value, gradient};
}

}  // namespace milab
