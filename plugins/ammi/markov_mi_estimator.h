#pragma once
// MI of discrete structured codes (AMMI paper): an encoder p(z|y) of Markov order o over z in {0,1}^m, a
// predictor q(z|x) of order h >= o, and the estimate H+(Z) - H+(Z|X), where H+(Z|X) is the cross entropy
// between p(z|y) and q(z|x) (Algorithm 1) and H(Z) is
//   ammi: the cross entropy H+(Z) against a learned prior q(z) of order r >= o, minimised by G inner Adam
//         steps per step (Algorithm 2); neither an upper nor a lower bound;
//   bmmi: exactly, by enumerating the 2^m codes of the batch's aggregate posterior (m <= 16); then the estimate
//         is a lower bound on I(X;Z) <= I(X;Y).
// (psi, phi) take one Adam step on H+(Z|X) - beta H(Z) with gradient clipping.
#include <memory>

#include "ammi/markov_mi_options.h"
#include "method/estimator.h"
#include "method/markov_encoder.h"
#include "nn/flat_adam.h"
#include "nn/mlp.h"

namespace milab {

namespace markov {
class LearnedPrior;
}

class MarkovMiEstimator final : public Estimator, public MarkovEncoder {
 public:
  MarkovMiEstimator(const EstimatorContext& ctx, bool learnedPrior);
  MarkovMiEstimator(const EstimatorContext& ctx, const MarkovMiOptions& options);
  ~MarkovMiEstimator() override;

  int64_t batchSize() const override { return batch_; }
  // The final reading pools more samples than a training batch (eval_pool). bmmi: the aggregate posterior of
  // a batch holds at most `batch` codes, so its exact entropy is capped near log(batch) when batch < 2^m.
  int64_t evaluationBatchSize() const override { return evalPool_; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

  // The encoder p(z|y)'s Markov logits [B, m, 2^o] (used by the prior-order sweep, AMMI's Figure 1(a)).
  at::Tensor encoderLogits(const at::Tensor& y) override;

 private:
  struct Entropies {
    at::Tensor marginal, conditional;  // H+(Z) (or the exact H(Z)) and H+(Z|X), means over the batch
    at::Tensor encoder;                // p(z|y)'s Markov logits on the batch [B, m, 2^o]
  };
  // trainPrior: fit the prior first (Algorithm 2's inner loop), then read H+(Z) with the prior held fixed.
  Entropies entropies(const Batch& batch, bool trainPrior);

  bool learnedPrior_;
  int64_t bits_, orderY_, orderX_, orderPrior_, batch_, evalPool_, priorSteps_, settleSteps_;
  double priorLr_, beta_, clip_;
  bool selfPredicting_;              // predictor = encoder: X = Y, no predictor network
  std::function<bool()> cancelled_;  // the settling fit before the final reading takes seconds at m = 16
  bool priorSettled_ = false;
  Mlp encoder_{nullptr}, predictor_{nullptr};
  std::unique_ptr<FlatAdam> adam_;
  std::unique_ptr<markov::LearnedPrior> prior_;  // ammi only
};

}  // namespace milab
