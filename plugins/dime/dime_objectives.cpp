#include "dime_objectives.h"

namespace milab {

namespace {
// log(softplus(t)) without its underflow: softplus(t) = exp(t) to double precision below t = -30, where the
// logarithm of the rounded value would be -inf in float. The other branch is clamped too: where() differentiates
// both, and -inf's gradient times 0 is NaN (KL-DIME's loss went NaN at MI 10 without it).
at::Tensor logSoftplus(const at::Tensor& t) { return at::where(t < -30, t, at::log(at::softplus(t.clamp_min(-30)))); }
// softplus^-1(d) = log(exp(d) - 1) = d + log(1 - exp(-d)), for d > 0 given as log d.
at::Tensor softplusInverseOfLog(const at::Tensor& logD) {
  const at::Tensor d = at::exp(logD);
  return at::where(logD < -30, logD, d + at::log(-at::expm1(-d)));
}
}  // namespace

at::Tensor dimePhiJoint(FDivergence d, const at::Tensor& t) {
  switch (d) {
    case FDivergence::Kl:
      return -logSoftplus(t);
    case FDivergence::Gan:
      return at::softplus(t);
    case FDivergence::Hellinger:
      return at::softplus(t);
  }
  return {};
}

at::Tensor dimePhiMarginal(FDivergence d, const at::Tensor& t) {
  switch (d) {
    case FDivergence::Kl:
      return at::softplus(t);
    case FDivergence::Gan:
      return at::softplus(-t);
    case FDivergence::Hellinger:
      return at::exp(-logSoftplus(t));
  }
  return {};
}

at::Tensor dimeLogRatio(FDivergence d, const at::Tensor& t) {
  switch (d) {
    case FDivergence::Kl:
      return logSoftplus(t);
    case FDivergence::Gan:
      return -t;
    case FDivergence::Hellinger:
      return -2 * logSoftplus(t);
  }
  return {};
}

at::Tensor dimeLoss(FDivergence d, const at::Tensor& joint, const at::Tensor& marginal) {
  const at::Tensor jointTerm = dimePhiJoint(d, joint).mean();
  if (marginal.dim() == 1) return jointTerm + dimePhiMarginal(d, marginal).mean();
  // Every off-diagonal pair: the whole matrix's sum less its diagonal's (no mask, so no host read).
  const int64_t n = marginal.size(0);
  const at::Tensor offDiagonal = dimePhiMarginal(d, marginal).sum() - dimePhiMarginal(d, joint).sum();
  return jointTerm + offDiagonal / double(n * (n - 1));
}

at::Tensor dimeCriticOfLogRatio(FDivergence d, const at::Tensor& logRatio) {
  switch (d) {
    case FDivergence::Kl:
      return softplusInverseOfLog(logRatio);
    case FDivergence::Gan:
      return -logRatio;
    case FDivergence::Hellinger:
      return softplusInverseOfLog(-0.5 * logRatio);
  }
  return {};
}

}  // namespace milab
