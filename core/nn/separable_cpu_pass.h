#pragma once
// The separable critic's forward and backward written out for contiguous CPU floats: both MLPs, the score matrix
// f(x) g(y)^T and, from a gradient at the scores, every parameter gradient, with the thirteen GEMMs through oneDNN's
// sgemm (nn/sgemm) and the bias, ReLU and column-sum loops by hand, into buffers kept from step to step.
//
// Why: at the batch sizes InfoNCE is trained with (K = 32..512) ATen's GEMMs (Debian's OpenBLAS, AVX2 only on
// AMD Zen 5) and a dispatch per small operation are most of a step; a PyTorch loop pays the same, and the step
// read well ahead of the loop at K = 128 (docs/speed.md, "Speed"). The arithmetic is the ATen step's
// (nn/mlp_backward) up to the order of float additions: the bias is added after the GEMM, not inside it. Torch
// header: include it only from torch translation units.
//
// The embeddings are kept transposed, [E, K]: oneDNN's sgemm forms W2 h^T [E, K] faster than h W2^T [K, E]
// (K = 128, E = H = 100), and the score matrix and the embeddings' gradients read them as fast that way, which
// shortens the pass (docs/speed.md, "Speed"). Each product is the same dot products in the same order, so the
// numbers are those of the untransposed pass to the bit (checked: seeded curves identical).
#include <ATen/core/Tensor.h>

#include "nn/mlp.h"

namespace milab {

class SeparableCpuPass {
 public:
  // Whether the pass takes these inputs and networks: as many rows of x as of y (the in-batch square), contiguous
  // float32 tensors and parameters on the CPU.
  static bool takes(Mlp& f, Mlp& g, const at::Tensor& xs, const at::Tensor& ys);

  // scores[i][j] = f(xs_i) . g(ys_j), [K, K]: a buffer of this pass, valid until the next forward. Keeps what
  // backward reads (xs and ys are not copied: they must stay alive and unchanged until backward).
  const at::Tensor& forward(Mlp& f, Mlp& g, const at::Tensor& xs, const at::Tensor& ys);
  // From d(loss)/d(scores) [K, K] (contiguous float), every gradient of f and g, overwriting their .grad().
  void backward(Mlp& f, Mlp& g, const at::Tensor& gradScores);

 private:
  struct Side {  // one MLP's activations and gradients for the last forward
    const float* input = nullptr;
    int64_t inputDim = 0;
    at::Tensor hidden, gradHidden;    // [K, H]
    at::Tensor outputT, gradOutputT;  // [E, K]: the embeddings transposed
  };
  void forwardSide(Mlp& mlp, const at::Tensor& input, Side& side);
  void backwardSide(Mlp& mlp, Side& side);
  void reserve(int64_t rows, int64_t hidden, int64_t embed);

  Side x_, y_;
  at::Tensor scores_;
  int64_t rows_ = 0;
};

}  // namespace milab
