#pragma once
// The joint critic's scores and backward written out for contiguous CPU floats: the split first layer on x's rows and
// on y's rows, the B x M pairs through the later layers a row of x at a time in cache (nn/joint_rows, on a copy of
// the network padded to whole blocks of units), and from a gradient at the scores every parameter gradient.
//
// Why: bmi's recipe trains a (16, 8) joint critic on batches of 256, i.e. 65,536 pairs a step, and reads a held-out
// half of 2,500 x 2,500 pairs; through ATen each of the dozen operations of a step streams a [65,536, 16]
// activation through memory (bench_joint_step's ATen column, docs/speed.md, "The joint critic (bmi's recipe)"; most
// of a benchmark cell's time). Here a pair's activations never leave the first levels of cache, and the backward
// recomputes them instead of keeping them.
// The arithmetic is autograd's up to the order of float additions (test_joint_step). Torch header.
#include <ATen/core/Tensor.h>

#include <vector>

#include "nn/joint_rows.h"

namespace milab {

class JointCpuPass {
 public:
  // `parameters` in JointCritic's order: wx [H, dx], wy [H, dy], b1 [H], then each later layer's weight and bias,
  // the last of output width 1. Whether the pass takes them and these inputs: contiguous float32 on the CPU,
  // gradients defined (training).
  static bool takes(const std::vector<at::Tensor>& parameters, const at::Tensor& xs, const at::Tensor& ys);

  // scores[i][j] = T([xs_i, ys_j]) as a new tensor, rows in parallel (evaluation: nothing kept).
  static at::Tensor scores(const std::vector<at::Tensor>& parameters, const at::Tensor& xs, const at::Tensor& ys);

  // inBatchNce(scores(xs, ys)) for as many ys as xs, row by row without the whole matrix (a held-out half of
  // 5,000 rows is 25 million pairs: 100 MB of scores, then as much again for their log-softmax), rows in parallel.
  static double inBatchNce(const std::vector<at::Tensor>& parameters, const at::Tensor& xs, const at::Tensor& ys);

  // The same for a training step, into a buffer of this pass valid until the next forward; keeps what backward
  // reads (xs and ys are not copied: they must stay alive and unchanged until backward).
  const at::Tensor& forward(const std::vector<at::Tensor>& parameters, const at::Tensor& xs, const at::Tensor& ys);
  // From d(loss)/d(scores) [B, M] (contiguous float), every parameter's gradient, overwriting its .grad().
  void backward(const std::vector<at::Tensor>& parameters, const at::Tensor& gradScores);

 private:
  // The network padded with zero units to whole blocks of kJointUnitBlock, with its first layer applied to a batch.
  struct Padded {
    std::vector<at::Tensor> weights, biases;  // the later layers
    std::vector<int64_t> widths;
    std::vector<const float*> weightData, biasData;
    at::Tensor hx, hyT;  // [B, H] with the bias; [H, M rounded up to a tile of pairs], the padding columns zero

    JointRowsNet rows() const;
    // Row i of the scores against the first m y's, a chunk of y's at a time, into out [m].
    void scoreRow(int64_t i, int64_t m, float* scratch, float* out) const;
  };
  static void pad(const std::vector<at::Tensor>& parameters, const at::Tensor& xs, const at::Tensor& ys, Padded& net);

  Padded net_;
  at::Tensor xs_, ys_, scores_, dhx_, dhyT_, scratch_;
  std::vector<at::Tensor> sums_;  // the later layers' gradients lane by lane, padded as the network
};

}  // namespace milab
