#pragma once
// MI lower bounds as pure functions of critic scores. For a [B, B] matrix, scores[i][j] = critic(x_i, y_j):
// the diagonal holds joint pairs, the off-diagonal ones pairs from the product of the marginals.
// Formulas: Poole et al. 2019 (NWJ, TUBA, DV, JS), Song & Ermon 2020 (SMILE), DEMI paper eq. 2 and 6 (InfoNCE).
#include <ATen/core/Tensor.h>

namespace milab {

// InfoNCE, in-batch: mean_i [s_ii - logsumexp_j s_ij] + log B. Ceiling log B.
at::Tensor inBatchNce(const at::Tensor& scores);
// InfoNCE over explicit candidates [B, C], positive in column 0: mean_i [s_i0 - logsumexp_c s_ic] + log C.
at::Tensor firstColumnNce(const at::Tensor& scores);

// log of the mean of exp over the off-diagonal entries.
at::Tensor logMeanExpOffDiagonal(const at::Tensor& scores);
// TUBA with a constant baseline: 1 + E_joint[s] - E_marginals[e^s]. Optimal s = PMI.
at::Tensor tubaBound(const at::Tensor& scores);
// NWJ: TUBA of s - 1, i.e. E_joint[s] - e^{-1} E_marginals[e^s]. Optimal s = PMI + 1.
at::Tensor nwjBound(const at::Tensor& scores);
// Donsker-Varadhan: E_joint[s] - log E_marginals[e^s]. Optimal s = PMI + any constant.
at::Tensor dvBound(const at::Tensor& scores);
// The f-GAN Jensen-Shannon objective (a lower bound on a JS divergence, not on MI). Optimal s = PMI.
at::Tensor jsObjective(const at::Tensor& scores);

// value(a) with the gradient of b: b + (a - b).detach(). Used where a method trains by one objective and
// reports another (JS-trained NWJ, SMILE).
at::Tensor valueOfWithGradientOf(const at::Tensor& value, const at::Tensor& gradient);

}  // namespace milab
