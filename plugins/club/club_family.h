#pragma once
// CLUB, the contrastive log-ratio upper bound (Cheng et al., 2020):
//   I_CLUB = E_p(x,y)[log q(y|x)] - E_p(x) E_p(y)[log q(y|x)]
// with a Gaussian q(y|x) (an MLP of x gives each dimension's mean and log scale) trained by maximum likelihood.
// With q the true p(y|x) it is an upper bound on I(X;Y) (Jensen: E_x log p(y|x) <= log p(y)); with a learned q
// only when q is good, so it is marked an upper bound "in expectation, when q is good". The all-pairs form
// averages the negative term over every (x_i, y_j) of the batch; `club-sample` over one random pairing.
// Torch-free header; the plugin classes beside it (club_plugin.h, club_sample_plugin.h) derive from it.
#include "method/method_plugin.h"

namespace milab {

class ClubPlugin : public MethodPlugin {
 public:
  ClubPlugin(QString id, QString displayName, bool sampled);

  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
  // q(y|x)'s activations; the all-pairs oracle reads the exact PMI of every batch x batch pair.
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  // An upper bound reads far above the truth when the MI per dimension is large (its oracle gap grows like
  // e^(2 mi_i)): its limit is three times what it reads with the true p(y|x), where the task knows that value
  // (TaskModel::knownValue(TaskModel::kClubOracleValue)), not the default's task-wide one.
  ReadingLimits readingLimits(const ParamMap& params, const TaskModel& task) const override;

 private:
  QString id_, displayName_;
  bool sampled_;
};

}  // namespace milab
