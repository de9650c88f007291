#pragma once
// DEMI's two critics read on one batch (x_i, x'_i, y_i): the unconditional psi(x', y) and the conditional
// phi(x', x, y). Learned: psi = f([x', 0]) . g(y) and phi = f([x', x]) . g(y), one f for both as in the
// DEMI paper's eq. 36. Oracle (no critic): psi = log p(y|x')/p(y) and phi = log p(y|x,x')/p(y|x'), the
// optimal critics of I_NCE(x';y) and I_CNCE(x;y|x'). Embeddings are computed once per batch.
#include <ATen/core/Tensor.h>

#include "tasks/task_sampler.h"

namespace milab {

class SeparableCritic;

class CriticPair {
 public:
  // `learned` null means the oracle. `batch` must have a subview.
  CriticPair(SeparableCritic* learned, const TaskSampler* task, const Batch& batch);

  at::Tensor psi();                                      // [B, B]: psi(x'_i, y_j)
  at::Tensor phi();                                      // [B, B]: phi(x'_i, x_i, y_j)
  at::Tensor phiPositive();                              // [B, 1]: phi(x'_i, x_i, y_i)
  at::Tensor psiAgainst(const at::Tensor& ys);           // [B, M]: psi(x'_i, ys_m), one shared set [M, d]
  at::Tensor phiAgainst(const at::Tensor& ys);           // [B, M]
  at::Tensor phiOnCandidates(const at::Tensor& perRow);  // [B, C]: phi(x'_i, x_i, perRow[i][c]), [B, C, d]
  // I_CNCE (DEMI eq. 6) of phi with the joint y_i against per-row negatives [B, C, d] (true p(y|x'), a
  // proposal q, ...): the positive in column 0 of C + 1 candidates.
  at::Tensor cnce(const at::Tensor& negatives);

 private:
  const at::Tensor& fSubview();  // f([x', 0])
  const at::Tensor& fBoth();     // f([x', x])
  const at::Tensor& gY();
  const at::Tensor& gOf(const at::Tensor& ys);  // g(ys), computed once per set (SIR reads its pool twice)

  SeparableCritic* learned_;
  const TaskSampler* task_;
  const Batch& batch_;
  at::Tensor fSubview_, fBoth_, gY_;
  at::Tensor pool_, gPool_;  // the last shared candidate set other than the batch's y, and its embedding
};

}  // namespace milab
