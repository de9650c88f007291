#pragma once
// MI lower bounds as pure functions of critic scores. For a [B, B] matrix, scores[i][j] = critic(x_i, y_j):
// the diagonal holds joint pairs, the off-diagonal ones pairs from the product of the marginals.
// Formulas: Poole et al. 2019 (NWJ, TUBA, DV, JS), Song & Ermon 2020 (SMILE), DEMI paper eq. 2 and 6 (InfoNCE).
#include <ATen/core/Tensor.h>

namespace milab {

// InfoNCE, in-batch: mean_i [s_ii - logsumexp_j s_ij] + log C for scores [B, C] (C = B, or the batch's columns
// followed by shared extra candidates). Ceiling log C.
at::Tensor inBatchNce(const at::Tensor& scores);
// InfoNCE over explicit candidates [B, C], positive in column 0: mean_i [s_i0 - logsumexp_c s_ic] + log C.
at::Tensor firstColumnNce(const at::Tensor& scores);

// An in-batch [B, C] matrix (C >= B: the batch's columns, then any shared extra candidates such as a MoCo queue)
// rearranged as explicit candidates [B, C]: column 0 the joint pair s_ii, then the C-1 others of row i in order.
// Lets in-batch and per-row candidate sets share one set of bounds.
at::Tensor positiveFirst(const at::Tensor& scores);

// I_IS (DEMI eq. 9) over candidates [B, C], positive in column 0, negatives from p(y):
// mean_i [phi_i0 - log((e^phi_i0 + (C-1) sum_k w_ik e^phi_ik) / C)], w_ik = softmax over the negatives k of
// psi_ik, the unconditional critic log p(y|x')/p(y) + c(x'). Ceiling log C. psi should be detached.
at::Tensor importanceSampledNce(const at::Tensor& phi, const at::Tensor& psi);

// log of the mean of exp over the off-diagonal entries.
at::Tensor logMeanExpOffDiagonal(const at::Tensor& scores);
// TUBA with a constant baseline: 1 + E_joint[s] - E_marginals[e^s]. Optimal s = PMI. For a learned
// baseline l(x), pass scores - l(x_i) per row.
at::Tensor tubaBound(const at::Tensor& scores);
// NWJ: TUBA of s - 1, i.e. E_joint[s] - e^{-1} E_marginals[e^s]. Optimal s = PMI + 1.
at::Tensor nwjBound(const at::Tensor& scores);
// Donsker-Varadhan: E_joint[s] - log E_marginals[e^s]. Optimal s = PMI + any constant.
at::Tensor dvBound(const at::Tensor& scores);
// DV read as bmi's MINE reads a held-out set: `joint` the critic on the n pairs (x_i, y_i), `marginal` on
// (x_i, y_perm(i)) for one permutation, so E_marginals is a mean over n pairs rather than all n (n - 1). (bmi's NWJ
// and DV read every off-diagonal pair: nn/every_pair_scores.h.)
at::Tensor dvOnPairs(const at::Tensor& joint, const at::Tensor& marginal);
// MINE (Belghazi et al. 2018): the value of dvBound, with the gradient E_joint[grad s] - grad Z / average, where
// Z = E_marginals[e^s] on this batch and `logAverage` (detached) the log of its moving average: the bias-corrected
// gradient of log Z replaces DV's own (grad Z / Z), it is not added to it. In the log domain, since Z itself
// overflows a float where log Z does not.
at::Tensor mineObjective(const at::Tensor& scores, const at::Tensor& logAverage);
// The f-GAN Jensen-Shannon objective (a lower bound on a JS divergence, not on MI). Optimal s = PMI.
at::Tensor jsObjective(const at::Tensor& scores);

// Poole et al.'s interpolated bound I_alpha for a [K, K] matrix (rows: x_i, columns: y_j): the baseline of
// each row mixes the leave-one-out InfoNCE mean (weight alpha) with a learned log-baseline l(x_i) [K].
// alpha -> 1 gives a multi-sample InfoNCE, alpha -> 0 gives TUBA. Ceiling 1 + log((K - 1) / alpha): the joint
// term's leave-one-out mean over K-1 columns contains the positive.
at::Tensor interpolatedBound(const at::Tensor& scores, const at::Tensor& logBaseline, double alpha);

// value(a) with the gradient of b: b + (a - b).detach(). Used where a method trains by one objective and
// reports another (JS-trained NWJ, SMILE).
at::Tensor valueOfWithGradientOf(const at::Tensor& value, const at::Tensor& gradient);

}  // namespace milab
