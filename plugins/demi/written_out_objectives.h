#pragma once
// The contrastive objectives of the DEMI family's written-out steps (demi_step.cpp), each as its value and its
// gradient with respect to the scores it was computed from, so a step can run without an autograd graph.
// Torch header: include it only from torch translation units.
#include <ATen/core/Tensor.h>

namespace milab {

struct ScoredObjective {
  at::Tensor value;     // one element
  at::Tensor gradient;  // of -value, with respect to the scores
};

// InfoNCE over a score matrix whose target in row i is the diagonal (in-batch: I_NCE, and I_BO of psi + phi) or
// column 0 (explicit candidates: I_CNCE): mean_i log_softmax(s)_i,target(i) + log(columns), as nn/bounds'
// inBatchNce and firstColumnNce compute it. The gradient of -value is (softmax(s) - onehot(target)) / rows.
enum class NceTarget { diagonal, firstColumn };
ScoredObjective nceWithGradient(const at::Tensor& scores, NceTarget target);

// I_IS (DEMI eq. 9) over the in-batch phi, row i's positive phi_ii and its negatives phi_ik (k != i) weighted by
// the softmax of psi_ik (bounds.h importanceSampledNce, on positiveFirst's arrangement). The gradient is with
// respect to phi; left undefined when withGradient is false.
ScoredObjective importanceSampledWithGradient(const at::Tensor& psi, const at::Tensor& phi, bool withGradient = true);

}  // namespace milab
