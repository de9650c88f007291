#include "markov/learned_prior.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <limits>

#include "markov/markov_code.h"
#include "method/estimator.h"
#include "nn/descent.h"
#include "nn/mlp.h"

namespace milab::markov {

LearnedPrior::LearnedPrior(int64_t bits, int64_t order, int64_t hidden, double lr, at::Generator& gen,
                           c10::Device device)
    : order_(order) {
  embedding_ = (at::rand({bits, hidden}, gen) * 0.2 - 0.1).to(device).requires_grad_();
  output_ = torch::nn::Linear(hidden, int64_t{1} << order);
  initLinear(output_, gen);
  output_->to(device);
  std::vector<at::Tensor> params = output_->parameters();
  params.push_back(embedding_);
  adam_ = std::make_unique<FlatAdam>(params, lr);
}

LearnedPrior::~LearnedPrior() = default;

at::Tensor LearnedPrior::logits() { return output_->forward(embedding_).unsqueeze(0); }

double LearnedPrior::fit(const at::Tensor& encoderLogits, int64_t steps, const std::function<bool()>& cancelled) {
  c10::NoGradGuard noGrad;
  const at::Tensor best =
      fitWindows(windowMarginals(encoderLogits.detach(), order_, cancelled).mean(0, true), steps, cancelled);
  return best.defined() ? best.item<double>() : std::numeric_limits<double>::infinity();
}

at::Tensor LearnedPrior::fitWindows(const at::Tensor& aggregateWindows, int64_t steps,
                                    const std::function<bool()>& cancelled) {
  c10::AutoGradMode enable(true);  // also called from evaluation, which runs without gradients
  const at::Tensor fixed = aggregateWindows.detach();
  // The minimum stays a tensor: no device sync on each of AMMI's G steps per step.
  at::Tensor best;
  for (int64_t g = 0; g < steps; ++g) {
    if (cancelled && cancelled()) throw EstimatorCancelled();
    const at::Tensor loss = crossEntropyOfWindows(fixed, logits()).squeeze(0);
    best = g == 0 ? loss.detach() : at::minimum(best, loss.detach());
    descend(*adam_, loss);
  }
  return best;
}

at::Tensor optimalPrior(const at::Tensor& encoderLogits, int64_t order) {
  const int64_t m = encoderLogits.size(1);
  // Aggregate window marginals [m, 2^order, 2]: P(history h, z_i) under mean_b p(z|y_b).
  const at::Tensor windows = windowMarginals(encoderLogits.detach().to(at::kDouble), order).mean(0);
  const at::Tensor joint = windows.view({m, int64_t{1} << order, 2});
  const at::Tensor tiny = at::full({}, 1e-300, joint.options());
  const at::Tensor logOdds =
      at::log(at::maximum(joint.select(2, 1), tiny)) - at::log(at::maximum(joint.select(2, 0), tiny));
  const at::Tensor seen = joint.sum(2) > 0;
  return at::where(seen, logOdds, at::zeros_like(logOdds)).to(encoderLogits.scalar_type()).unsqueeze(0);
}

at::Tensor learnedMarginalCrossEntropy(LearnedPrior& prior, const at::Tensor& encoderLogits, int64_t priorSteps,
                                       const std::function<bool()>& cancelled) {
  const at::Tensor windows = windowMarginals(encoderLogits, prior.order(), cancelled).mean(0, true);  // one DP for both
  prior.fitWindows(windows.detach(), priorSteps, cancelled);
  return crossEntropyOfWindows(windows, prior.logits().detach()).squeeze(0);
}

}  // namespace milab::markov
