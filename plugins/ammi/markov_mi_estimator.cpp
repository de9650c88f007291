#include "ammi/markov_mi_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <cmath>

#include "markov/enumeration.h"
#include "markov/learned_prior.h"
#include "markov/markov_code.h"
#include "method/score_matrix_estimator.h"
#include "nn/descent.h"

namespace milab {

namespace {
constexpr int64_t kMaxDiagnosticEntries = int64_t{1} << 22;  // AMMI's optional exact reading stays cheap
}  // namespace

MarkovMiEstimator::MarkovMiEstimator(const EstimatorContext& ctx, bool learnedPrior)
    : MarkovMiEstimator(ctx, MarkovMiOptions::from(ctx.params, learnedPrior)) {}

MarkovMiEstimator::MarkovMiEstimator(const EstimatorContext& ctx, const MarkovMiOptions& o)
    : learnedPrior_(o.learnedPrior),
      bits_(o.bits),
      orderY_(o.orderY),
      orderX_(o.orderX),
      orderPrior_(o.learnedPrior ? o.priorOrder : 0),
      batch_(o.batch),
      evalPool_(o.evaluationPool()),
      priorSteps_(o.learnedPrior ? o.priorSteps : 0),
      settleSteps_(o.learnedPrior ? o.settleSteps : 0),
      priorLr_(o.learnedPrior ? o.priorLr : 0.0),
      beta_(o.beta),
      clip_(o.clip),
      selfPredicting_(o.selfPredicting),
      cancelled_(ctx.cancelled) {
  at::Generator gen = ctx.generator;
  const int64_t d = ctx.task->dimY(), xDim = criticInputDim(*ctx.task);
  const int64_t hidden = o.hidden;
  encoder_ = Mlp(d, hidden, bits_ << orderY_, gen);
  encoder_->to(ctx.device);
  std::vector<at::Tensor> params = encoder_->parameters();
  if (!selfPredicting_) {
    predictor_ = Mlp(xDim, hidden, bits_ << orderX_, gen);
    predictor_->to(ctx.device);
    for (const at::Tensor& p : predictor_->parameters()) params.push_back(p);
  }
  adam_ = std::make_unique<FlatAdam>(params, o.lr);
  if (learnedPrior_)
    prior_ = std::make_unique<markov::LearnedPrior>(bits_, orderPrior_, hidden, priorLr_, gen, ctx.device);
}

MarkovMiEstimator::~MarkovMiEstimator() = default;

MarkovMiEstimator::Entropies MarkovMiEstimator::entropies(const Batch& batch, bool trainPrior) {
  const int64_t n = batch.y.size(0);
  const at::Tensor encoder = encoderLogits(batch.y);
  Entropies e;
  e.encoder = encoder;
  if (selfPredicting_) {
    e.conditional = markov::entropy(encoder).mean();  // H(Z|Y), exact
  } else {
    const at::Tensor predictor = predictor_->forward(criticInput(batch)).view({n, bits_, int64_t{1} << orderX_});
    e.conditional = markov::crossEntropy(encoder, predictor, cancelled_).mean();  // seconds at m = 128, high orders
  }
  if (learnedPrior_) {
    e.marginal = markov::learnedMarginalCrossEntropy(*prior_, encoder, trainPrior ? priorSteps_ : 0, cancelled_);
  } else {
    e.marginal = markov::aggregateEntropy(encoder);
  }
  return e;
}

StepResult MarkovMiEstimator::trainStep(const Batch& batch) {
  const Entropies e = entropies(batch, true);
  const at::Tensor loss = e.conditional - beta_ * e.marginal;
  descendClipped(*adam_, loss,
                 selfPredicting_
                     ? std::vector<std::vector<at::Tensor>>{encoder_->parameters()}
                     : std::vector<std::vector<at::Tensor>>{encoder_->parameters(), predictor_->parameters()},
                 clip_);
  return {(e.marginal - e.conditional).detach(), loss};
}

at::Tensor MarkovMiEstimator::encoderLogits(const at::Tensor& y) {
  return encoder_->forward(y).view({y.size(0), bits_, int64_t{1} << orderY_});
}

Evaluation MarkovMiEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  if (learnedPrior_ && !priorSettled_) {
    // H+(Z) is a minimum over theta; during training the prior trails a moving encoder by G steps. Before the
    // final reading it is fitted to the frozen encoder on the first evaluation batch; the other batches then
    // read it out of sample.
    priorSettled_ = true;
    prior_->fit(encoderLogits(batch.y), settleSteps_, cancelled_);
  }
  const Entropies e = entropies(batch, false);
  const double hz = e.marginal.item<double>(), hzx = e.conditional.item<double>();
  Evaluation out{hz - hzx,
                 {{learnedPrior_ ? "H+(Z)" : "H(Z) (exact)", hz},
                  {"H+(Z|X)", hzx},
                  {"estimate (bits)", (hz - hzx) / std::log(2.0)},
                  {"m log 2", bits_ * std::log(2.0)}}};
  // For AMMI with few bits, the exact entropy of the pool's aggregate posterior shows how far the prior's
  // cross entropy H+(Z) sits above it: an encoder can fool a low-order prior (the paper's Figure 1(a)).
  if (learnedPrior_ && bits_ <= markov::kMaxEnumeratedBits && (batch.y.size(0) << bits_) <= kMaxDiagnosticEntries)
    out.terms << Term{"H(Z) exact over the pool", markov::aggregateEntropy(e.encoder, cancelled_).item<double>()};
  return out;
}

}  // namespace milab
