#pragma once
// The DEMI family's training steps on a SeparableCritic with their backward written out: autograd's step to float
// rounding, about a third of the time (demi_step.cpp says why). Torch header: include it only from torch
// translation units.
#include <ATen/core/Tensor.h>

namespace milab {

class SeparableCritic;

// The conditional objective a DEMI variant trains beside I_NCE(x';y) over the in-batch psi = f([x', 0]) . g(y),
// on phi = f([x', x]) . g(y) (CriticPair's definitions; psi detached in it):
//   cnceNegatives:     I_CNCE(x;y|x'), the positive y_i first, then per-row negatives [B, C, d] (true p(y|x'),
//                      or a proposal q: DEMI, DEMI-VAR)
//   boosted:           I_BO = I_NCE over the in-batch psi + phi (DEMI-BO)
//   importanceSampled: I_IS over the in-batch phi, weighted by psi (DEMI-IS)
enum class DemiConditional { cnceNegatives, boosted, importanceSampled };

struct DemiStep {
  at::Tensor unconditional, conditional;  // the two objectives' values (no gradient)
  at::Tensor importanceSampled;           // I_IS(x;y|x') of the in-batch phi and psi (boosted, importanceSampled)
};

// One Adam step of `critic` maximising I_NCE(x';y) plus the conditional objective.
DemiStep trainDemi(SeparableCritic& critic, const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y,
                   DemiConditional conditional, const at::Tensor& negatives = {});

// One Adam step maximising I_CNCE(x;y|x') alone (the cnce method; CriticPair::cnce of phi = f([x', x]) . g(y)
// against per-row negatives [B, C, d]), the same written-out backward as trainDemi's cnceNegatives. Returns its
// value.
at::Tensor trainCnce(SeparableCritic& critic, const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y,
                     const at::Tensor& negatives);

}  // namespace milab
