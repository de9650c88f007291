#pragma once
// The joint critic of bmi's neural estimators and f-DIME: one ReLU MLP T on the pair [x, y] (hidden widths
// `layers`, bmi's default 16, 8, then one output), scored over every pair of a batch: scores[i][j] = T([x_i, y_j]).
// The separable f(x) . g(y) of the DEMI paper can only score a pair by an inner product of embeddings; T can model
// any interaction, at B x M MLP passes per batch. Its first layer is split, W [x, y] = Wx x + Wy y, so it runs on
// B + M rows instead of B x M; the layers after it run on every pair (on CPU floats in cache: nn/joint_cpu_pass).
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <QList>
#include <memory>

#include "nn/joint_cpu_pass.h"
#include "nn/scores_objective.h"

namespace milab {

class FlatAdam;

class JointCritic {
 public:
  // layers: one or more hidden widths (e.g. {16, 8}); lr: Adam's.
  JointCritic(int64_t xDim, int64_t yDim, const QList<int>& layers, double lr, c10::Device device, at::Generator& gen);
  ~JointCritic();

  at::Tensor scores(const at::Tensor& xs, const at::Tensor& ys);      // [B, M]: T([xs_i, ys_j])
  at::Tensor pairScores(const at::Tensor& xs, const at::Tensor& ys);  // [B]: T([xs_i, ys_i])
  // inBatchNce(scores(xs, ys)) without a graph; on CPU floats row by row, never holding the whole score matrix.
  at::Tensor inBatchNce(const at::Tensor& xs, const at::Tensor& ys);
  const std::vector<at::Tensor>& parameters() const;
  void minimise(const at::Tensor& loss);  // one Adam step on `loss`
  // One Adam step maximising a bound of scores(xs, ys), the step of minimise(-objective) with the pairs' backward
  // written out on contiguous CPU floats (JointCpuPass), through autograd elsewhere (nn/joint_step.cpp).
  // `objective` sees the scores without a graph, valid during the call only. Returns the objective.
  at::Tensor trainOnScores(const at::Tensor& xs, const at::Tensor& ys, const ScoresObjective& objective);
  // trainOnScores without the Adam step: every parameter's .grad() overwritten with d(-objective)/d(parameter).
  at::Tensor writeGradients(const at::Tensor& xs, const at::Tensor& ys, const ScoresObjective& objective);

 private:
  // The hidden layers after the first and the output, on activations [..., width] -> [...].
  at::Tensor rest(at::Tensor hidden) const;

  at::Tensor wx_, wy_, b1_;                   // the first layer, split by side
  std::vector<at::Tensor> weights_, biases_;  // the later layers, the last one's output width 1
  std::unique_ptr<FlatAdam> adam_;
  JointCpuPass cpuPass_;
};

}  // namespace milab
