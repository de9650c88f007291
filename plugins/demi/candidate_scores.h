#pragma once
// The scores of per-row candidates through one ReLU layer, r_b . relu(z_bc) + o_b, and their backward, for a
// [B, C, H] pre-activation z (DEMI's conditional negatives: MlpImpl::dotWithRows with the first layer already
// applied). On a CPU these are two fused passes over z, row block by row block while each block sits in the L1
// cache, instead of the five full passes (relu, product, sum; outer product, mask) that ATen's ops take over a
// tensor larger than L2: a fraction of their time at DEMI's K = 128 (docs/speed.md, "Speed"). Elsewhere (CUDA,
// double) the same arithmetic in ATen ops.
// DEMI's step on a CPU now takes candidate_nce instead (the GEMMs fused in too); these serve a GPU or double run.
// Torch header: include it only from torch translation units.
#include <ATen/core/Tensor.h>

namespace milab {

// Applies relu to `preActivation` [B, C, H] in place (it becomes the hidden activation h) and writes
// scores[b][c] = rows[b] . h[b][c] + offsets[b] into `scores` [B, C] (a view, rows contiguous). rows [B, H],
// offsets [B].
void scoreReluCandidates(at::Tensor& preActivation, const at::Tensor& rows, const at::Tensor& offsets,
                         at::Tensor& scores);

// Given gradScores [B, C] (rows contiguous) and the activation h from scoreReluCandidates: writes
// gradRows[b] = sum_c gradScores[b][c] h[b][c] into gradRows [B, H] and returns the gradient of the
// pre-activation [B * C, H]: gradScores[b][c] rows[b] where h[b][c] > 0, else 0.
at::Tensor scoreReluCandidatesBackward(const at::Tensor& gradScores, const at::Tensor& hidden, const at::Tensor& rows,
                                       at::Tensor& gradRows);

}  // namespace milab
