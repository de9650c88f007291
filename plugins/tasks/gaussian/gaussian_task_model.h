#pragma once
// A GaussianModel as the lab sees a task: its truths, the plausibility rule's limit (5 nats per dimension), CLUB's
// closed-form oracle value, the per-dimension breakdown the task chart draws, and its sampler (every capability).
#include "gaussian_model.h"
#include "tasks/task.h"

namespace milab {

class GaussianTaskModel final : public TaskModel {
 public:
  explicit GaussianTaskModel(GaussianModel model) : model_(std::move(model)) {}

  const GaussianModel& model() const { return model_; }

  int dimX() const override { return model_.dim(); }
  int dimY() const override { return model_.dim(); }
  bool hasSubview() const override { return model_.hasSubview(); }
  double totalMi() const override { return model_.totalMi(); }
  double conditionalMi() const override { return model_.conditionalMi(); }
  QList<NamedValue> truths() const override;
  double largestMi() const override { return GaussianModel::kMaxMeanDimMi * model_.dim(); }
  std::optional<double> knownValue(const QString& name) const override;
  TaskBreakdown breakdown() const override;
  std::unique_ptr<TaskSampler> sampler(c10::Device device) const override;

 private:
  GaussianModel model_;
};

// The exact value of the all-pairs CLUB with the true p(y|x) on a covariate-Gaussian task: per dimension
// rho^2 / (1 - rho^2) = 1 / sigma_i^2 - 1, where sigma_i^2 = Var(y_i | x_i, x'_i) (e^-2 mi_i); the truth is
// sum_i mi_i = -sum_i log(sigma_i), so the gap grows like e^(2 mi_i). Unchanged by the cubic map.
double clubOracleValue(const GaussianModel& model);

}  // namespace milab
