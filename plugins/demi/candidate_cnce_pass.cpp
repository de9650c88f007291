// I_CNCE against per-row negatives, forward and backward (candidate_cnce_pass.h says how the negatives are scored).
#include "candidate_cnce_pass.h"

#include <ATen/ATen.h>

#include <optional>

#include "candidate_nce.h"
#include "candidate_scores.h"
#include "nn/mlp_backward.h"
#include "written_out_objectives.h"

namespace milab {

CandidateCncePass candidateCnce(Mlp& g, const at::Tensor& fBoth, const at::Tensor& gY, const at::Tensor& negatives,
                                at::Tensor& gradFBoth, at::Tensor& gradGY) {
  const torch::nn::Linear& gIn = g->input;
  const torch::nn::Linear& gOut = g->output;
  const int64_t b = fBoth.size(0), c = negatives.size(1), d = negatives.size(2);
  const at::Tensor folded = fBoth.mm(gOut->weight);  // [B, H]
  const at::Tensor offsets = fBoth.mv(gOut->bias);
  CandidateCncePass pass;
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
    const ScoredObjective cnce = nceWithGradient(candidates, NceTarget::firstColumn);
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

void addNegativesGradients(Mlp& g, const at::Tensor& fBoth, const CandidateCncePass& pass) {
  g->output->weight.mutable_grad().addmm_(fBoth.t(), pass.gradFolded);
  g->output->bias.mutable_grad().add_(fBoth.t().mv(pass.gradOffset.squeeze(1)));
  if (pass.gradWeight.defined()) {
    g->input->weight.mutable_grad().add_(pass.gradWeight);
    g->input->bias.mutable_grad().add_(pass.gradBias);
  } else {
    linearGradients(g->input, pass.flatNegatives, pass.gradHidden, GradientWrite::accumulate);
  }
}

}  // namespace milab
