#pragma once
// AMMI's variational prior q(z) of Markov order r: logits FF(Theta) [1, m, 2^r], Theta an m x H embedding
// initialised in [-0.1, 0.1] (the public code's init range), fitted by its own Adam to the cross entropy
// H+(Z) = H(mean_b p(z|y_b), q) of a batch of encoder distributions held fixed (Algorithm 2's inner loop).
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <torch/nn/modules/linear.h>

#include <functional>
#include <memory>

#include "nn/flat_adam.h"

namespace milab::markov {

class LearnedPrior {
 public:
  LearnedPrior(int64_t bits, int64_t order, int64_t hidden, double lr, at::Generator& gen, c10::Device device);
  ~LearnedPrior();

  at::Tensor logits();  // [1, m, 2^r], differentiable in theta
  int64_t order() const { return order_; }
  // `steps` Adam steps on the mean cross entropy against the encoder logits [B, m, 2^o] (detached: only theta
  // moves). Returns the lowest cross entropy seen, read before each step. `cancelled` is polled every step (a
  // fit of hundreds of steps at a high order takes seconds) and throws EstimatorCancelled when true.
  double fit(const at::Tensor& encoderLogits, int64_t steps, const std::function<bool()>& cancelled = {});
  // The same from the batch's aggregate windows mean_b windowMarginals(p_b, r) [1, m, 2^(r+1)] (detached), all
  // the fit reads of the encoder: the dynamic program runs once per fit, not once per Adam step. The lowest cross
  // entropy stays on the device (one element; undefined when steps is 0): AMMI's training step never reads it.
  at::Tensor fitWindows(const at::Tensor& aggregateWindows, int64_t steps, const std::function<bool()>& cancelled = {});

 private:
  int64_t order_;
  at::Tensor embedding_;               // Theta [m, H]
  torch::nn::Linear output_{nullptr};  // FF: H -> 2^r
  std::unique_ptr<FlatAdam> adam_;
};

// The best prior of order r for a batch, in closed form: q(z_i | h) is the aggregate posterior's own conditional
// (window marginal over history marginal), so H(mean_b p_b, q) = sum_i H(Z_i | Z_{i-r..i-1}), the least cross
// entropy any order-r prior can reach; at r = m - 1 it is H(Z) exactly (chain rule). Logits [1, m, 2^r];
// histories the batch never produces get logit 0.
at::Tensor optimalPrior(const at::Tensor& encoderLogits, int64_t order);

// AMMI's H+(Z) in one training step (Algorithm 2), shared by the AMMI estimator and the AMMI hasher: one dynamic
// program gives the batch's aggregate windows of the encoder logits [B, m, 2^o]; the prior takes its `priorSteps`
// Adam steps on them (detached), then H+(Z) is read against the prior held fixed, differentiable in the encoder.
at::Tensor learnedMarginalCrossEntropy(LearnedPrior& prior, const at::Tensor& encoderLogits, int64_t priorSteps,
                                       const std::function<bool()>& cancelled = {});

}  // namespace milab::markov
