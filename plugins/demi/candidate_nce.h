#pragma once
// I_CNCE over per-row candidates scored through one ReLU layer (DEMI's conditional negatives: the positive's score
// given, each negative y scored r_b . relu(W y + c) + o_b), forward and backward in one pass on a CPU.
//
// Why: the layer's pre-activation over every negative ([B, C, H]: 1.6 MB at DEMI's K = 128) does not fit the
// cache, and the unfused step (candidate_scores plus two ATen GEMMs, still the GPU's and double's path) wrote
// it and read it back five times. A row's softmax needs only that row's candidates, so here a few rows at a time
// go through the GEMM (oneDNN's sgemm, AVX-512 where the CPU has it), relu and score, their softmax, the gradient
// of the pre-activation and the weight-gradient GEMM while the block is still in L2. At K = 128 the pass took less
// than the unfused one even with OpenBLAS's GEMMs (bench_demi_parts times it; docs/speed.md, "Speed"). The
// arithmetic is the unfused step's up to the order of float additions (the bias is added after the GEMM, not
// inside it). Torch header: include it only from torch translation units.
#include <ATen/core/Tensor.h>

#include <optional>

namespace milab {

// The value and every gradient of -value. For rows b and their candidates (column 0 the positive, score
// `positive[b]`; columns 1..C the negatives y_bc, score rows[b] . relu(weight y_bc + bias) + offsets[b]):
// value = mean_b log_softmax(scores_b)[0] + log(C + 1), as nn/bounds firstColumnNce.
struct CandidateNce {
  at::Tensor value;         // one element
  at::Tensor gradPositive;  // [B]
  at::Tensor gradRows;      // [B, H]
  at::Tensor gradOffsets;   // [B]
  at::Tensor gradWeight;    // [H, d], through the negatives only
  at::Tensor gradBias;      // [H], through the negatives only
};

// weight [H, d] and bias [H] (the layer), rows [B, H], offsets [B], positive [B], negatives [B, C, d]. Nothing when
// the tensors are not contiguous CPU floats (a GPU or double run), or the build has no oneDNN (as before nn/sgemm
// existed): the caller takes ATen's ops.
std::optional<CandidateNce> fusedCandidateNce(const at::Tensor& weight, const at::Tensor& bias, const at::Tensor& rows,
                                              const at::Tensor& offsets, const at::Tensor& positive,
                                              const at::Tensor& negatives);

}  // namespace milab
