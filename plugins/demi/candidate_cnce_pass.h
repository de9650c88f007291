#pragma once
// I_CNCE of phi = f([x', x]) . g(y) against the positive y_i in column 0 and per-row negatives [B, C, d], forward
// and backward without autograd, for the written-out steps of demi, demi-var and cnce (demi_step.cpp). The
// negatives are scored through g's first layer only, r . (W2 h + b2) = (r W2) . h + r . b2 (MlpImpl::dotWithRows),
// so their share of g's parameter gradients is kept in the pass and added after g's own backward
// (addNegativesGradients): on a CPU as the first layer's gradients themselves (candidate_nce, one fused pass),
// elsewhere (a GPU, double) as the negatives and the gradient of their pre-activation, for one GEMM.
// Torch header: include it only from torch translation units.
#include <ATen/core/Tensor.h>

#include "nn/mlp.h"

namespace milab {

struct CandidateCncePass {
  at::Tensor value;
  at::Tensor gradFolded, gradOffset;     // [B, H], [B, 1]
  at::Tensor gradWeight, gradBias;       // fused: the first layer's gradients through the negatives
  at::Tensor flatNegatives, gradHidden;  // unfused: [B * C, d] and the gradient of their pre-activation
};

// fBoth = f([x', x]) [B, E], gY = g(y) [B, E]: the gradient of -I_CNCE written into gradFBoth and added into gradGY.
CandidateCncePass candidateCnce(Mlp& g, const at::Tensor& fBoth, const at::Tensor& gY, const at::Tensor& negatives,
                                at::Tensor& gradFBoth, at::Tensor& gradGY);

// Adds the negatives' share to g's parameter gradients: the folded output layer's and the first layer's over the
// B * C candidates. Call after g's backward over g(y) has written its gradients.
void addNegativesGradients(Mlp& g, const at::Tensor& fBoth, const CandidateCncePass& pass);

}  // namespace milab
