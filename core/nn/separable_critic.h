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
  // params: lr, hidden, embed (criticParamSpecs).
  SeparableCritic(int64_t xDim, int64_t yDim, const ParamMap& params, c10::Device device, at::Generator& gen);

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
  // One Adam step maximising DEMI's I_NCE(x';y) + I_CNCE(x;y|x') (CriticPair's psi, phi and cnce: f([x', 0]) and
  // f([x', x]) against g(y), the positive first, then per-row negatives [B, C, d]), its backward written out
  // (demi_step.cpp): autograd's step to float rounding. Returns the two terms (no gradient).
  struct DemiTerms {
    at::Tensor unconditional, conditional;
  };
  DemiTerms trainDemi(const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y, const at::Tensor& negatives);

 private:
  Mlp f_{nullptr}, g_{nullptr};
  std::unique_ptr<FlatAdam> adam_;
  at::Tensor diagonalSeed_;  // trainInBatchNce's constant gradient at the log-softmax, for the last K
};

}  // namespace milab
