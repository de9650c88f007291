#pragma once
// CLUB, the contrastive log-ratio upper bound (Cheng et al., 2020):
//   I_CLUB = E_p(x,y)[log q(y|x)] - E_p(x) E_p(y)[log q(y|x)]
// with a Gaussian q(y|x) (an MLP of x gives each dimension's mean and log scale) trained by maximum likelihood.
// With q the true p(y|x) it is an upper bound on I(X;Y) (Jensen: E_x log p(y|x) <= log p(y)); with a learned q
// only when q is good, so it is marked an upper bound "in expectation, when q is good". The all-pairs form
// averages the negative term over every (x_i, y_j) of the batch; `club-sample` over one random pairing.
// Torch-free header; the plugin classes in plugins/club* derive from it.
#include "method/method_plugin.h"

namespace milab {

class ClubPlugin : public MethodPlugin {
 public:
  ClubPlugin(QString id, QString displayName, bool sampled);

  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
  // An upper bound reads far above the truth when the MI per dimension is large (its oracle gap grows like
  // e^(2 mi_i)): its limit is three times its closed-form oracle value, not the default's task-wide one.
  ReadingLimits readingLimits(const ParamMap& params, const GaussianModel& task) const override;

 private:
  QString id_, displayName_;
  bool sampled_;
};

// The exact value of the all-pairs CLUB with the true p(y|x) on a covariate-Gaussian task: per dimension
// rho^2 / (1 - rho^2) = 1 / sigma_i^2 - 1, where sigma_i^2 = Var(y_i | x_i, x'_i) (e^-2 mi_i); the truth is
// sum_i mi_i = -sum_i log(sigma_i) , so the gap grows like e^(2 mi_i). Unchanged by the cubic map.
class GaussianModel;
double clubOracleValue(const GaussianModel& model);

}  // namespace milab
