// JointCritic::trainOnScores and writeGradients: the joint critic's training step with the pairs' backward written
// out on contiguous CPU floats (nn/joint_cpu_pass.h says why), for every bound of a score matrix; elsewhere (a GPU,
// double) the same step through autograd. Both are checked against autograd's step in test_joint_step.
#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "nn/flat_adam.h"
#include "nn/joint_critic.h"

namespace milab {

at::Tensor JointCritic::trainOnScores(const at::Tensor& xs, const at::Tensor& ys, const ScoresObjective& objective) {
  const at::Tensor value = writeGradients(xs, ys, objective);
  adam_->step();
  return value;
}

at::Tensor JointCritic::writeGradients(const at::Tensor& xs, const at::Tensor& ys, const ScoresObjective& objective) {
  if (JointCpuPass::takes(parameters(), xs, ys)) {
    const ScoresBackward bound = objective(cpuPass_.forward(parameters(), xs, ys));
    cpuPass_.backward(parameters(), bound.gradScores.contiguous());
    return bound.objective;
  }
  c10::AutoGradMode graph(true);
  const at::Tensor s = scores(xs, ys);
  const ScoresBackward bound = objective(s.detach());
  adam_->zero_grad();
  s.backward(bound.gradScores);
  return bound.objective;
}

}  // namespace milab
