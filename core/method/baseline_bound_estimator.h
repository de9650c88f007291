#pragma once
// Score-matrix bounds that also learn a log-baseline l(x) (TUBA, Poole's interpolated I_alpha): a [K, K]
// matrix of in-batch critic scores (rows x_i, columns y_j, joint on the diagonal) plus l(x_i) [K] from a
// one-hidden-layer MLP trained with the critic. With critic = oracle: scores = PMI and l = 0, their optimum.
#include <functional>
#include <memory>

#include "method/estimator.h"
#include "nn/flat_adam.h"
#include "nn/mlp.h"

namespace milab {

class JointCritic;
class SeparableCritic;
struct CriticOptions;

struct BaselineBound {
  QString name;                                                                              // the reported term
  std::function<at::Tensor(const at::Tensor& scores, const at::Tensor& logBaseline)> value;  // also trained
};

class BaselineBoundEstimator final : public Estimator {
 public:
  // ctx.params: K, lr, hidden, embed, critic.
  BaselineBoundEstimator(const EstimatorContext& ctx, BaselineBound bound);
  ~BaselineBoundEstimator() override;

  int64_t batchSize() const override { return K_; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

 private:
  at::Tensor bound(const Batch& batch);

  // The critic's settings, read once by the public constructor.
  BaselineBoundEstimator(const EstimatorContext& ctx, const CriticOptions& options, BaselineBound bound);

  int64_t K_;
  const TaskSampler* task_;
  std::unique_ptr<SeparableCritic> critic_;  // critic = learned
  std::unique_ptr<JointCritic> joint_;       // critic = joint; both null for the oracle
  Mlp baseline_{nullptr};
  std::unique_ptr<FlatAdam> adam_;  // the baseline's; the critic has its own
  BaselineBound bound_;
};

}  // namespace milab
