#pragma once
// f-DIME (dime_objectives.h) as a method: a discriminator on (x, y) pairs trained against marginal pairs made by
// pairing each x with another row's y, and its reading E_joint[log R]. Not capped by log(batch) as InfoNCE is by
// log K: the marginal pairs never include the joint one (derangement), which is the paper's point; a plain
// permutation leaves each row with itself 1/batch of the time and caps R near the batch size (negatives =
// permutation reproduces that), and all-pairs uses every off-diagonal pair of the batch.
#include <memory>

#include "dime_objectives.h"
#include "dime_options.h"
#include "method/estimator.h"
#include "method/method_plugin.h"

namespace milab {

class DimeEstimator final : public Estimator {
 public:
  explicit DimeEstimator(const EstimatorContext& ctx, FDivergence divergence);
  ~DimeEstimator() override;

  int64_t batchSize() const override { return options_.batch; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

 private:
  // The discriminator's outputs on a batch: T on the joint pairs [B], and on the marginal pairs ([B] with one other
  // row's y each, or [B, B] with every pair, the joint ones on the diagonal).
  struct Outputs {
    at::Tensor joint, marginal;
  };
  Outputs outputs(const Batch& batch, bool withMarginal = true);
  at::Tensor jointOutputs(const Batch& batch, const at::Tensor& xs);  // T on the joint pairs; xs = criticInput

  struct Networks;
  DimeOptions options_;
  const TaskSampler* task_;
  at::Generator gen_;               // the networks' initialisation
  at::Generator pairing_;           // draws the marginal pairs (derangement or permutation), on the run's device
  std::unique_ptr<Networks> nets_;  // null for the oracle
};

}  // namespace milab
