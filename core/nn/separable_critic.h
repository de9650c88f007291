#pragma once
// The DEMI paper's synthetic critic: f(x side)^T g(y), two one-hidden-layer ReLU MLPs (hidden, embed from the
// method's parameters) trained by one Adam over both. Shared by every contrastive plugin.
#include <memory>

#include "nn/flat_adam.h"
#include "nn/in_batch_nce_backward.h"
#include "nn/mlp.h"
#include "nn/scores_objective.h"
#include "nn/separable_cpu_pass.h"
#include "params/param_spec.h"

namespace milab {

class SeparableCritic {
 public:
  // hidden and embed: each MLP's hidden units and output size; lr: Adam's (criticParamSpecs' fields).
  SeparableCritic(int64_t xDim, int64_t yDim, int64_t hidden, int64_t embed, double lr, c10::Device device,
                  at::Generator& gen);

  at::Tensor embedX(const at::Tensor& x) { return f_->forward(x); }
  at::Tensor embedY(const at::Tensor& y) { return g_->forward(y); }
  // scores[i][j] = f(xs_i) . g(ys_j)
  at::Tensor scores(const at::Tensor& xs, const at::Tensor& ys) { return embedX(xs).matmul(embedY(ys).t()); }
  // fRows[b] . g(candidates[b][c]) -> [B, C] (see MlpImpl::dotWithRows)
  at::Tensor dotWithCandidates(const at::Tensor& fRows, const at::Tensor& candidates) {
    return g_->dotWithRows(fRows, candidates);
  }
  // Every parameter of f and g; each .grad() holds the last step's gradient.
  const std::vector<at::Tensor>& parameters() const { return adam_->parameters(); }
  // One Adam step on `loss`.
  void minimise(const at::Tensor& loss);
  // One Adam step maximising a bound of scores(xs, ys), the step of minimise(-objective) with the networks'
  // backward written out (separable_step.cpp): on contiguous CPU floats through SeparableCpuPass, elsewhere
  // through the ATen calls autograd makes. `objective` sees the scores without a graph, valid during the call
  // only. Returns the objective (no gradient).
  at::Tensor trainOnScores(const at::Tensor& xs, const at::Tensor& ys, const ScoresObjective& objective);
  // trainOnScores without the Adam step: every parameter's .grad() overwritten with d(-objective)/d(parameter).
  // Returns the objective.
  at::Tensor writeGradients(const at::Tensor& xs, const at::Tensor& ys, const ScoresObjective& objective);
  // trainOnScores for inBatchNce, its gradient at the scores in closed form (no autograd at all).
  at::Tensor trainInBatchNce(const at::Tensor& xs, const at::Tensor& ys);
  // That closed form: inBatchNce(scores) and its gradient (no graph; on CPU floats a buffer of this critic, valid
  // until the next call).
  ScoresBackward inBatchNceBackward(const at::Tensor& scores);
  // For a step whose backward is written out outside this class (plugins/demi/demi_step): the two MLPs, f over
  // the x side and g over y, and one Adam step over the gradients written into their parameters' .grad().
  Mlp& xNetwork() { return f_; }
  Mlp& yNetwork() { return g_; }
  void stepOnWrittenGradients() { adam_->step(); }

 private:
  Mlp f_{nullptr}, g_{nullptr};
  std::unique_ptr<FlatAdam> adam_;
  InBatchNceBackward inBatchNce_;
  SeparableCpuPass cpuPass_;
};

}  // namespace milab
