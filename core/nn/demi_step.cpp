// SeparableCritic::trainDemi: the DEMI family's training step (I_NCE(x';y) + a conditional objective, DEMI paper
// eq. 2, 6, 9, 10) with its backward pass written out.
//
// Why: autograd's own work (a graph node per operation, saved tensors, gradients accumulated into zeroed buffers)
// costs about as much as the arithmetic of these small steps, and the conditional negatives' [B, C, H] activation
// was handled in shapes BLAS does badly (a bmm with one column, 3x slower than an elementwise product and sum over
// [64, 63, 100], and its backward two more). Here the step makes no graph, takes one pass of f over the stacked
// inputs [x', 0] and [x', x], scores the negatives with their softmax and backward in one fused pass a few rows
// at a time (nn/candidate_nce on a CPU; nn/candidate_scores' loops and two GEMMs elsewhere), and writes each
// gradient straight into the optimiser's flat buffer. The arithmetic is autograd's up to the order of
// float additions, so the step is autograd's to rounding, not to the bit: test_step_loop compares one step's
// gradients and many steps' readings for each objective, test_statistical the trained readings at MI 5, 10, 20.
#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <limits>
#include <optional>

#include "nn/candidate_nce.h"
#include "nn/candidate_scores.h"
#include "nn/mlp_backward.h"
#include "nn/separable_critic.h"

namespace milab {

namespace {

// logsumexp of each row without its diagonal entry.
at::Tensor logSumExpOffDiagonal(const at::Tensor& scores) {
  at::Tensor masked = scores.clone();
  masked.diagonal().fill_(-std::numeric_limits<double>::infinity());
  return at::logsumexp(masked, 1);
}

struct Objective {
  at::Tensor value;     // one element
  at::Tensor gradient;  // of -value, with respect to the scores it was computed from
};

// InfoNCE over a score matrix whose target in row i is the diagonal (in-batch: I_NCE, and I_BO of psi + phi) or
// column 0 (explicit candidates: I_CNCE): mean_i log_softmax(s)_i,target(i) + log(columns), as nn/bounds'
// inBatchNce and firstColumnNce compute it. The gradient of -value is (softmax(s) - onehot(target)) / rows.
enum class NceTarget { diagonal, firstColumn };
Objective nce(const at::Tensor& scores, NceTarget target) {
  at::Tensor logSoftmax = at::log_softmax(scores, 1);
  at::Tensor atTarget = target == NceTarget::diagonal ? logSoftmax.diagonal() : logSoftmax.select(1, 0);
  const at::Tensor value = atTarget.mean() + std::log(static_cast<double>(scores.size(1)));
  logSoftmax.exp_();  // the softmax, in place: atTarget views it
  atTarget.sub_(1);
  return {value, logSoftmax.div_(static_cast<double>(scores.size(0)))};
}

// I_IS (eq. 9) over the in-batch phi, row i's positive phi_ii and its negatives phi_ik (k != i) weighted by the
// softmax of psi_ik (bounds.h importanceSampledNce, on positiveFirst's arrangement). With a_i = log sum_k w_ik
// e^phi_ik + log(B - 1) and D_i = logaddexp(phi_ii, a_i): value = mean_i (phi_ii - D_i) + log B, and the gradient
// of -value is -(1 - s_i) / B at phi_ii and (1 - s_i) r_ik / B at phi_ik, where 1 - s_i = e^(a_i - D_i) and r_ik is
// the softmax over k != i of psi_ik + phi_ik.
Objective importanceSampled(const at::Tensor& psi, const at::Tensor& phi, bool withGradient = true) {
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

// I_CNCE of phi = f([x', x]) . g(y) against the positive y_i in column 0 and per-row negatives [B, C, d], and its
// backward as far as f([x', x]) and g(y): the gradient of -value written into gradFBoth, added into gradGY. The
// negatives are scored through g's first layer only, r . (W2 h + b2) = (r W2) . h + r . b2 (MlpImpl::dotWithRows),
// so their share of g's parameter gradients is left in the pass for applyNegativesGradients, after g's backward:
// on a CPU as the first layer's gradients themselves (nn/candidate_nce, one fused pass), elsewhere as the
// negatives and the gradient of their pre-activation, for one GEMM.
struct CandidatesPass {
  at::Tensor value;
  at::Tensor gradFolded, gradOffset;     // [B, H], [B, 1]
  at::Tensor gradWeight, gradBias;       // fused: the first layer's gradients through the negatives
  at::Tensor flatNegatives, gradHidden;  // unfused: [B * C, d] and the gradient of their pre-activation
};

CandidatesPass candidatesCnce(Mlp& g, const at::Tensor& fBoth, const at::Tensor& gY, const at::Tensor& negatives,
                              at::Tensor& gradFBoth, at::Tensor& gradGY) {
  const torch::nn::Linear& gIn = g->input;
  const torch::nn::Linear& gOut = g->output;
  const int64_t b = fBoth.size(0), c = negatives.size(1), d = negatives.size(2);
  const at::Tensor folded = fBoth.mm(gOut->weight);  // [B, H]
  const at::Tensor offsets = fBoth.mv(gOut->bias);
  CandidatesPass pass;
  at::Tensor gradPositive;  // [B, 1]
  if (std::optional<CandidateNce> fused =
          fusedCandidateNce(gIn->weight, gIn->bias, folded, offsets, (fBoth * gY).sum(1), negatives.contiguous())) {
    pass.value = fused->value;
    pass.gradFolded = fused->gradRows;
    pass.gradOffset = fused->gradOffsets.unsqueeze(1);
    pass.gradWeight = fused->gradWeight;
    pass.gradBias = fused->gradBias;
    gradPositive = fused->gradPositive.unsqueeze(1);
  } else {
    pass.flatNegatives = negatives.reshape({b * c, d});
    at::Tensor hidden = linearForward(gIn, pass.flatNegatives).view({b, c, -1});  // [B, C, H], relu below
    at::Tensor candidates = at::empty({b, c + 1}, hidden.options());
    at::Tensor positive = candidates.select(1, 0), negative = candidates.narrow(1, 1, c);
    at::sum_out(positive, fBoth * gY, {1});
    scoreReluCandidates(hidden, folded, offsets, negative);
    const Objective cnce = nce(candidates, NceTarget::firstColumn);
    pass.value = cnce.value;
    const at::Tensor& grad = cnce.gradient;
    const at::Tensor gradNegatives = grad.narrow(1, 1, c);  // [B, C]
    gradPositive = grad.narrow(1, 0, 1);
    pass.gradFolded = at::empty_like(folded);
    pass.gradHidden = scoreReluCandidatesBackward(gradNegatives, hidden, folded, pass.gradFolded);
    pass.gradOffset = gradNegatives.sum(1, true);
  }
  at::mm_out(gradFBoth, pass.gradFolded, gOut->weight.t());
  gradFBoth.addcmul_(gradPositive, gY).add_(pass.gradOffset * gOut->bias);
  gradGY.addcmul_(gradPositive, fBoth);
  return pass;
}

// g's layers also carry the negatives: the folded output layer and the first layer over B * C candidates.
void applyNegativesGradients(Mlp& g, const at::Tensor& fBoth, const CandidatesPass& pass) {
  g->output->weight.mutable_grad().addmm_(fBoth.t(), pass.gradFolded);
  g->output->bias.mutable_grad().add_(fBoth.t().mv(pass.gradOffset.squeeze(1)));
  if (pass.gradWeight.defined()) {
    g->input->weight.mutable_grad().add_(pass.gradWeight);
    g->input->bias.mutable_grad().add_(pass.gradBias);
  } else {
    linearGradients(g->input, pass.flatNegatives, pass.gradHidden, GradientWrite::accumulate);
  }
}

}  // namespace

SeparableCritic::DemiStep SeparableCritic::trainDemi(const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y,
                                                     DemiConditional conditional, const at::Tensor& negatives) {
  c10::NoGradGuard noGraph;
  const int64_t b = xp.size(0);
  // f over [x', 0] (rows 0..B-1) and [x', x] (rows B..2B-1) in one pass.
  const at::Tensor fInput = at::cat({at::cat({xp, at::zeros_like(x)}, 1), at::cat({xp, x}, 1)}, 0);
  const MlpPass f = mlpForward(f_, fInput), gy = mlpForward(g_, y);
  const at::Tensor fSubview = f.output.narrow(0, 0, b), fBoth = f.output.narrow(0, b, b), gY = gy.output;
  at::Tensor gradF = at::empty_like(f.output);
  at::Tensor gradFSubview = gradF.narrow(0, 0, b), gradFBoth = gradF.narrow(0, b, b);

  // I_NCE(x';y) over the in-batch psi.
  DemiStep step;
  const at::Tensor psi = fSubview.mm(gY.t());
  const Objective unconditional = nce(psi, NceTarget::diagonal);
  step.unconditional = unconditional.value;
  at::mm_out(gradFSubview, unconditional.gradient, gY);
  at::Tensor gradG = unconditional.gradient.t().mm(fSubview);

  // The conditional objective: its gradient into f([x', x]) and g(y), and for candidates into g's layers directly.
  CandidatesPass candidatesPass;
  if (conditional == DemiConditional::cnceNegatives) {
    candidatesPass = candidatesCnce(g_, fBoth, gY, negatives, gradFBoth, gradG);
    step.conditional = candidatesPass.value;
  } else {
    const at::Tensor phi = fBoth.mm(gY.t());
    // I_BO (eq. 10) is the in-batch InfoNCE of psi + phi, psi detached.
    const Objective o =
        conditional == DemiConditional::boosted ? nce(psi + phi, NceTarget::diagonal) : importanceSampled(psi, phi);
    step.conditional = o.value;
    step.importanceSampled =
        conditional == DemiConditional::boosted ? importanceSampled(psi, phi, false).value : o.value;
    at::mm_out(gradFBoth, o.gradient, gY);
    gradG.addmm_(o.gradient.t(), fBoth);
  }

  mlpBackward(f_, f, gradF);
  mlpBackward(g_, gy, gradG);
  if (conditional == DemiConditional::cnceNegatives) applyNegativesGradients(g_, fBoth, candidatesPass);
  adam_->step();
  return step;
}

at::Tensor SeparableCritic::trainCnce(const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y,
                                      const at::Tensor& negatives) {
  c10::NoGradGuard noGraph;
  const MlpPass f = mlpForward(f_, at::cat({xp, x}, 1)), gy = mlpForward(g_, y);
  at::Tensor gradF = at::empty_like(f.output), gradG = at::zeros_like(gy.output);
  const CandidatesPass pass = candidatesCnce(g_, f.output, gy.output, negatives, gradF, gradG);
  mlpBackward(f_, f, gradF);
  mlpBackward(g_, gy, gradG);
  applyNegativesGradients(g_, f.output, pass);
  adam_->step();
  return pass.value;
}

}  // namespace milab
