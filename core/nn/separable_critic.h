#pragma once
// The DEMI paper's synthetic critic: f(x side)^T g(y), two one-hidden-layer ReLU MLPs (hidden, embed from the
// method's parameters) trained by one Adam over both. Shared by every contrastive plugin.
#include <memory>

#include "nn/flat_adam.h"
#include "nn/mlp.h"
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
  // One Adam step maximising inBatchNce(scores(xs, ys)), the same step as minimise(-inBatchNce(...)) to the bit,
  // about a third faster: its backward written out (in_batch_nce_step.cpp). Returns the objective (no gradient).
  at::Tensor trainInBatchNce(const at::Tensor& xs, const at::Tensor& ys);
  // One Adam step of a DEMI variant, its backward written out (demi_step.cpp; autograd's step to float rounding):
  // maximises I_NCE(x';y) over the in-batch psi = f([x', 0]) . g(y), plus the conditional critic phi =
  // f([x', x]) . g(y)'s objective (CriticPair's definitions; psi detached in it):
  //   cnceNegatives:     I_CNCE(x;y|x'), the positive y_i first, then per-row negatives [B, C, d] (true p(y|x'),
  //                      or a proposal q: DEMI, DEMI-VAR)
  //   boosted:           I_BO = I_NCE over the in-batch psi + phi (DEMI-BO)
  //   importanceSampled: I_IS over the in-batch phi, weighted by psi (DEMI-IS)
  enum class DemiConditional { cnceNegatives, boosted, importanceSampled };
  struct DemiStep {
    at::Tensor unconditional, conditional;  // the two objectives' values (no gradient)
    at::Tensor importanceSampled;           // I_IS(x;y|x') of the in-batch phi and psi (boosted, importanceSampled)
  };
  // One Adam step maximising I_CNCE(x;y|x') alone (the cnce method; CriticPair::cnce of phi = f([x', x]) . g(y)
  // against per-row negatives [B, C, d]), the same written-out backward as trainDemi's cnceNegatives. Returns its
  // value.
  at::Tensor trainCnce(const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y, const at::Tensor& negatives);
  DemiStep trainDemi(const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y, DemiConditional conditional,
                     const at::Tensor& negatives = {});

 private:
  Mlp f_{nullptr}, g_{nullptr};
  std::unique_ptr<FlatAdam> adam_;
  at::Tensor diagonalSeed_;  // trainInBatchNce's constant gradient at the log-softmax, for the last K
};

}  // namespace milab
