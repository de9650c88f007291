#include "hashing/hashers.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "markov/learned_prior.h"
#include "markov/markov_code.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "nn/mlp.h"

namespace milab {

LshHasher::LshHasher(const at::Tensor& trainImages, int64_t bits, at::Generator& gen)
    : mean_(trainImages.mean(0)),
      projection_(at::randn({trainImages.size(1), bits}, gen, trainImages.options().device(at::kCPU))
                      .to(trainImages.device())) {}

at::Tensor LshHasher::codes(const at::Tensor& images) const {
  return (at::matmul(images - mean_, projection_) > 0).to(at::kLong);
}

struct AmmiHasher::State {
  AmmiHashSettings s;
  Mlp encoder{nullptr};
  std::unique_ptr<FlatAdam> adam;
  std::unique_ptr<markov::LearnedPrior> prior;
};

AmmiHasher::AmmiHasher(const AmmiHashSettings& settings, int64_t inputDim, at::Generator& gen, c10::Device device)
    : state_(std::make_unique<State>()) {
  State& st = *state_;
  st.s = settings;
  st.encoder = Mlp(inputDim, settings.hidden, settings.bits, gen);  // order 0: one logit per bit
  st.encoder->to(device);
  st.adam = std::make_unique<FlatAdam>(st.encoder->parameters(), settings.lr);
  st.prior = std::make_unique<markov::LearnedPrior>(settings.bits, settings.orderPrior, settings.hidden,
                                                    settings.priorLr, gen, device);
}

AmmiHasher::~AmmiHasher() = default;

at::Tensor AmmiHasher::trainStep(const at::Tensor& images) {
  State& st = *state_;
  // AMMI's step with the encoder as its own predictor: H(Z|Y) is exact (order 0), H+(Z) is the estimator's.
  const at::Tensor logits = st.encoder->forward(images).unsqueeze(2);  // [B, m, 1]
  const at::Tensor marginal = markov::learnedMarginalCrossEntropy(*st.prior, logits, st.s.priorSteps);  // H+(Z)
  const at::Tensor conditional = markov::entropy(logits).mean();                                        // H(Z|Y)
  descendClipped(*st.adam, conditional - st.s.beta * marginal, {st.encoder->parameters()}, st.s.clip);
  return (marginal - conditional).detach();
}

at::Tensor AmmiHasher::codes(const at::Tensor& images) {
  c10::NoGradGuard noGrad;
  return (state_->encoder->forward(images) > 0).to(at::kLong);  // order 0: Viterbi is each bit's own argmax
}

}  // namespace milab
