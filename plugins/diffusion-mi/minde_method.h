#pragma once
// minde-c: MI as the gap between a score with y and without it (MINDE's conditional variant, Franzese, Bounoua and
// Michiardi, ICLR 2024; MustaphaBounoua/minde). By Girsanov's theorem the KL divergence between the diffusions of
// p(x | y) and p(x) is 1/2 the integral over t of beta(t) E |score(x_t | y) - score(x_t)|^2, and its mean over y is
// I(x;y). The lab's diffusion estimator (diffusion_estimator.h) with MINDE's recipe: times on the VP-SDE drawn from
// the importance density (vp_sde.h), in training too; each training batch given y or not with probability 1/2
// (MINDE's two masks), the loss scaled as MINDE's. The reading is Z/2 mean |noise with y - noise without|^2; its
// "sigma" variant, each prediction against a unit Gaussian's (the difference outside), is reported beside it. Only
// x is diffused (the conditional variant; MINDE-J diffuses both). Neither a lower nor an upper bound.
#include "diffusion_estimator.h"
#include "method/method_plugin.h"
#include "minde_options.h"

namespace milab {

class TaskSampler;

// The recipe for a task's x side of dimX columns and y of dimY.
DiffusionRecipe mindeRecipe(const MindeOptions& options, int64_t dimX, int64_t dimY);

class MindePlugin : public MethodPlugin {
 public:
  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  QList<Ceiling> ceilingsOn(const ParamMap& params, const TaskModel& task) const override;  // its schedule's cap
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
