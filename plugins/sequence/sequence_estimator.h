#pragma once
// The sequence family as an Estimator: a GRU encoder f over x (and x', which the task writes in x's shape), one g
// over y, and linear heads whose dot product is the critic: u(f(.)) . v(g(y)) for I_NCE(x;y) and I_NCE(x';y), and a
// conditional head c(f(x)) . v(g(y)) for the chain rule's second term. A reading is InfoNCE's bound, or DEMI's
// I_NCE(x';y) + I_CNCE(x;y|x') against the true p(y|x') (also for demi-text-bo, whose I_BO only trains), on a
// held-out batch; at the end the critic is scored by next-utterance retrieval. The conditional negatives of a reading are drawn with a generator made from the rows read
// (nn/reading_draws.h), so how often the held-out part is read never changes training.
#include <memory>

#include "method/estimator.h"
#include "method/learned_readings.h"
#include "sequence_options.h"

namespace milab {

class SequenceEstimator final : public Estimator, public LearnedReadings {
 public:
  SequenceEstimator(const EstimatorContext& ctx, SequenceObjective objective);
  ~SequenceEstimator() override;

  int64_t batchSize() const override { return options_.batch; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;
  // Next-utterance retrieval (next_utterance_retrieval.h) by the learned critic of x against y: InfoNCE's, or
  // DEMI's two added, psi(x', y) + phi(x, y), the chain rule's log p(y|x')/p(y) + log p(y|x)/p(y|x').
  QList<NamedValue> learnedReadings() override;

 private:
  // The objective's terms on `batch` (sequenceTrainingTermNames), or those a reading sums (sequenceTermNames).
  std::vector<at::Tensor> terms(const Batch& batch, at::Generator& negatives, bool reading);

  struct Networks;
  SequenceOptions options_;
  EstimatorContext ctx_;
  std::unique_ptr<Networks> nets_;
};

}  // namespace milab
