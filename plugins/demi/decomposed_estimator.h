#pragma once
// DEMI and its variants (DEMI paper sec. 3-4): I(x,x';y) = I(x';y) + I(x;y|x'). The unconditional critic psi
// is trained by I_NCE(x';y) over in-batch marginal negatives; the conditional critic phi by the variant's own
// objective (ground-truth CNCE, VAR, IS, BO, SIR). Both share f (see CriticPair). The final evaluation
// follows the run's protocol, the two panels of the paper's Figure 2:
//   conditional: I_NCE(x';y) + I_CNCE(x;y|x'), K/2 candidates per term, the conditional negatives drawn from
//                the true p(y|x'); ceiling 2 log(K/2)
//   marginal:    I_NCE(x';y) + I_IS(x;y|x') over one shared set of K marginal candidates, no access to
//                p(y|x'); ceiling 2 log K
// With critic = oracle both critics are the task's analytic ones and nothing is trained. The plugin side
// (parameters, ceilings, validation) is DecomposedPlugin.
#include <memory>
#include <optional>

#include "demi/decomposed_options.h"
#include "method/estimator.h"

namespace milab {

class CriticPair;
class SeparableCritic;

struct ConditionalTerm {
  at::Tensor objective;  // what phi (and the variant's own networks) maximise on this batch
  at::Tensor estimate;   // its reading as an estimate of I(x;y|x'), for the training curve (one element)
};

class DecomposedEstimator : public Estimator {
 public:
  explicit DecomposedEstimator(const EstimatorContext& ctx);
  ~DecomposedEstimator() override;

  int64_t batchSize() const final { return perTerm(); }
  StepResult trainStep(const Batch& batch) final;
  Evaluation evaluate(const Batch& batch) final;
  // For tests: every learned step by autograd on conditionalObjective, the definition a variant's writtenOutStep is
  // checked against (test_statistical).
  void trainByAutograd(bool on) { autogradOnly_ = on; }

 protected:
  // The variant's conditional objective on a training batch (with gradients unless oracle).
  virtual ConditionalTerm conditionalObjective(const Batch& batch, CriticPair& critics) = 0;
  // What the variant reports beside the protocol's terms, on an evaluation batch (no gradients).
  virtual QList<Term> ownTerms(const Batch& batch, CriticPair& critics) {
    Q_UNUSED(batch);
    Q_UNUSED(critics);
    return {};
  }

  // The variant's learned training step with its backward written out (demi_step.h), or nullopt to
  // train by autograd on conditionalObjective: the same objective (to float rounding) and the same draws, in a
  // fraction of the time. What it returns reads as conditionalObjective's does.
  struct WrittenOutStep {
    at::Tensor unconditional;  // I_NCE(x';y) on the batch
    ConditionalTerm conditional;
  };
  virtual std::optional<WrittenOutStep> writtenOutStep(const Batch& batch, SeparableCritic& critic) {
    Q_UNUSED(batch);
    Q_UNUSED(critic);
    return std::nullopt;
  }
  // perTerm()-1 negatives per row from the true p(y|x'), drawn with noise().
  at::Tensor groundTruthNegatives(const Batch& batch);
  // I_CNCE(x;y|x') with perTerm()-1 negatives per row from the true p(y|x').
  at::Tensor groundTruthCnce(const Batch& batch, CriticPair& critics);
  int64_t perTerm() const { return options_.perTerm(); }  // candidates per term: the batch is one set
  bool oracle() const { return !critic_; }
  const EstimatorContext& context() const { return ctx_; }
  const DecomposedOptions& options() const { return options_; }
  at::Generator& generator() { return ctx_.generator; }
  at::Generator& noise() { return ctx_.noise; }  // on the run's device (EstimatorContext::noise)

 private:
  EstimatorContext ctx_;
  DecomposedOptions options_;
  std::unique_ptr<SeparableCritic> critic_;  // null for the oracle
  bool autogradOnly_ = false;
};

}  // namespace milab
