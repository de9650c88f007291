#include "critic_pair.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "nn/bounds.h"
#include "nn/separable_critic.h"

namespace milab {

CriticPair::CriticPair(SeparableCritic* learned, const TaskSampler* task, const Batch& batch)
    : learned_(learned), task_(task), batch_(batch) {}

const at::Tensor& CriticPair::fSubview() {
  if (!fSubview_.defined()) fSubview_ = learned_->embedX(at::cat({batch_.xp, at::zeros_like(batch_.x)}, 1));
  return fSubview_;
}

const at::Tensor& CriticPair::fBoth() {
  if (!fBoth_.defined()) fBoth_ = learned_->embedX(at::cat({batch_.xp, batch_.x}, 1));
  return fBoth_;
}

const at::Tensor& CriticPair::gY() {
  if (!gY_.defined()) gY_ = learned_->embedY(batch_.y);
  return gY_;
}

const at::Tensor& CriticPair::gOf(const at::Tensor& ys) {
  if (ys.is_same(batch_.y)) return gY();
  // An embedding made without gradients (under a NoGradGuard) must not serve a read that needs them.
  if (!ys.is_same(pool_) || (c10::GradMode::is_enabled() && !gPool_.requires_grad())) {
    pool_ = ys;
    gPool_ = learned_->embedY(ys);
  }
  return gPool_;
}

at::Tensor CriticPair::psi() { return psiAgainst(batch_.y); }

at::Tensor CriticPair::phi() {
  if (learned_) return fBoth().matmul(gY().t());
  return phiAgainst(batch_.y);
}

at::Tensor CriticPair::phiPositive() {
  if (learned_) return (fBoth() * gY()).sum(1, true);
  return phiOnCandidates(batch_.y.unsqueeze(1));
}

at::Tensor CriticPair::psiAgainst(const at::Tensor& ys) {
  if (learned_) return fSubview().matmul(gOf(ys).t());
  return task_->subviewPmi(batch_.xp.unsqueeze(1), ys.unsqueeze(0));
}

at::Tensor CriticPair::phiAgainst(const at::Tensor& ys) {
  if (learned_) return fBoth().matmul(gOf(ys).t());
  return phiOnCandidates(ys.unsqueeze(0));
}

at::Tensor CriticPair::phiOnCandidates(const at::Tensor& perRow) {
  if (learned_) return learned_->dotWithCandidates(fBoth(), perRow);  // no output layer per candidate
  const at::Tensor x = batch_.x.unsqueeze(1), xp = batch_.xp.unsqueeze(1);
  return task_->pmi(x, xp, perRow) - task_->subviewPmi(xp, perRow);
}

at::Tensor CriticPair::cnce(const at::Tensor& negatives) {
  return firstColumnNce(at::cat({phiPositive(), phiOnCandidates(negatives)}, 1));
}

}  // namespace milab
