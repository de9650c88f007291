#pragma once
// The sequence family as an Estimator: a GRU encoder f over x (and x', which the task writes in x's shape), one g
// over y, and linear heads whose dot product is the critic: u(f(.)) . v(g(y)) for I_NCE(x;y) and I_NCE(x';y), and a
// conditional head c(f(x)) . v(g(y)) for the chain rule's second term. A reading is InfoNCE's bound, or DEMI's
// I_NCE(x';y) + I_CNCE(x;y|x') against the true p(y|x') (also for demi-text-bo, whose I_BO only trains), on a
// held-out batch; the conditional negatives of a reading are drawn with a generator made from the rows read
// (nn/reading_draws.h), so how often the held-out part is read never changes training.
#include <memory>

#include "method/estimator.h"
#include "sequence_options.h"

namespace milab {

class SequenceEstimator final : public Estimator {
 public:
  SequenceEstimator(const EstimatorContext& ctx, SequenceObjective objective);
  ~SequenceEstimator() override;

  int64_t batchSize() const override { return options_.batch; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

 private:
  // The objective's terms on `batch` (sequenceTrainingTermNames), or those a reading sums (sequenceTermNames).
  std::vector<at::Tensor> terms(const Batch& batch, at::Generator& negatives, bool reading);

  struct Networks;
  SequenceOptions options_;
  EstimatorContext ctx_;
  std::unique_ptr<Networks> nets_;
};

}  // namespace milab
