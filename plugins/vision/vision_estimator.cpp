#include "vision_estimator.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>

#include <algorithm>
#include <cmath>

#include "conv_encoder.h"
#include "encoder_embedding_map.h"
#include "momentum_keys.h"
#include "nn/flat_adam.h"
#include "nn/mlp.h"
#include "supervised_reference.h"

namespace milab {

namespace {

// Cosine similarities of every row of a with every row of b, over the temperature: [B, B].
at::Tensor cosineScores(const at::Tensor& a, const at::Tensor& b, double temperature) {
  const auto unit = [](const at::Tensor& v) { return v / v.norm(2, {1}, true).clamp_min(1e-12); };  // F.normalize
  return at::matmul(unit(a), unit(b).t()) / temperature;
}

}  // namespace

struct VisionEstimator::Networks {
  ConvEncoder encoder;
  Mlp head{nullptr}, conditionalHead{nullptr};  // g and g_bo of Listing 1 (the latter for the DEMI objectives)
  std::unique_ptr<FlatAdam> adam;
  std::unique_ptr<MomentumKeys> momentum;  // MoCo (queue > 0): y's keys from momentum copies, and a queue

  Networks(const VisionOptions& o, at::Generator& gen, c10::Device device) : encoder(o.channels, gen) {
    const int64_t r = encoder->outputs();
    head = Mlp(r, r, o.embed, gen);
    const bool conditional = o.objective == VisionObjective::DemiBo || o.objective == VisionObjective::DemiIs;
    if (conditional) conditionalHead = Mlp(r, r, o.embed, gen);
    encoder->to(device);
    head->to(device);
    std::vector<at::Tensor> params = encoder->parameters();
    for (const at::Tensor& p : head->parameters()) params.push_back(p);
    if (conditional) {
      conditionalHead->to(device);
      for (const at::Tensor& p : conditionalHead->parameters()) params.push_back(p);
    }
    adam = std::make_unique<FlatAdam>(params, o.lr);
    if (o.queue > 0)
      momentum = std::make_unique<MomentumKeys>(o.channels, o.embed, o.queue, encoder, head, gen, device);
  }
  void train(bool on) {
    encoder->train(on);
    head->train(on);
    if (conditionalHead) conditionalHead->train(on);
    if (momentum) momentum->train(on);
  }
};

VisionEstimator::VisionEstimator(const EstimatorContext& ctx, VisionObjective objective)
    : options_(visionOptions(objective, ctx.params)),
      task_(ctx.task),
      device_(ctx.device),
      cancelled_(ctx.cancelled),
      probe_(ctx.task, options_.probeTrain, options_.probeTest, ctx.cancelled) {
  at::Generator gen = ctx.generator;
  nets_ = std::make_unique<Networks>(options_, gen, ctx.device);
}

VisionEstimator::~VisionEstimator() = default;

VisionScores VisionEstimator::scores(const Batch& batch, at::Tensor* batchKeys) {
  const int64_t b = batch.x.size(0);
  // One pass of f over the views the objective reads: one batch-norm statistic over all of them, and fewer, larger
  // convolutions. InfoMin's x <-> y never sees x' (not even in its batch statistics). With a queue, y goes through
  // the momentum copy instead, without a gradient.
  const bool readsSubview = options_.objective != VisionObjective::Nce, momentum = bool(nets_->momentum);
  std::vector<at::Tensor> views{batch.x};
  if (readsSubview) views.push_back(batch.xp);
  if (!momentum) views.push_back(batch.y);
  const at::Tensor h = nets_->encoder(asImages(at::cat(views)));
  const at::Tensor hx = h.narrow(0, 0, b);
  const at::Tensor hxp = readsSubview ? h.narrow(0, b, b) : at::Tensor();
  at::Tensor ky;
  if (momentum) {
    const at::Tensor own = nets_->momentum->keysOf(asImages(batch.y));
    if (batchKeys) *batchKeys = own;
    ky = nets_->momentum->withQueue(own);
  } else {
    ky = nets_->head(h.narrow(0, readsSubview ? 2 * b : b, b));
  }
  VisionScores s;
  s.x = cosineScores(nets_->head(hx), ky, options_.temperature);
  if (readsSubview) s.xp = cosineScores(nets_->head(hxp), ky, options_.temperature);
  if (nets_->conditionalHead) {
    s.boX = cosineScores(nets_->conditionalHead(hx), ky, options_.temperature);
    s.boXp = cosineScores(nets_->conditionalHead(hxp), ky, options_.temperature);
  }
  return s;
}

StepResult VisionEstimator::trainStep(const Batch& batch) {
  nets_->train(true);
  if (nets_->momentum)  // MoCo: the key networks follow the online ones before they encode
    nets_->momentum->follow(options_.momentum);
  at::Tensor keys;
  const std::vector<at::Tensor> terms = visionTerms(options_.objective, scores(batch, &keys));
  at::Tensor objective = terms.front();
  for (size_t i = 1; i < terms.size(); ++i) objective = objective + terms[i];
  nets_->adam->zero_grad();
  const at::Tensor loss = -objective;
  loss.backward();
  nets_->adam->step();
  if (keys.defined()) nets_->momentum->push(keys);
  StepResult result{StepReading(objective.detach()), StepReading(loss.detach()), {}};
  if (terms.size() > 1) {  // one term is the estimate itself
    const QStringList names = visionTermNames(options_.objective);
    for (size_t i = 0; i < terms.size(); ++i) result.terms.push_back({names[int(i)], StepReading(terms[i].detach())});
  }
  return result;
}

Evaluation VisionEstimator::evaluate(const Batch& batch) {
  torch::NoGradGuard noGrad;
  nets_->train(false);  // batch norm from its running statistics: the encoder as a probe reads it
  const std::vector<at::Tensor> terms = visionTerms(options_.objective, scores(batch));
  nets_->train(true);
  Evaluation e;
  const QStringList names = visionTermNames(options_.objective);
  for (size_t i = 0; i < terms.size(); ++i) {
    const double v = terms[i].item<double>();
    e.value += v;
    e.terms << Term{names[int(i)], v};
  }
  return e;
}

double VisionEstimator::probeAccuracy() {
  nets_->train(false);
  const double accuracy = probe_.accuracy(nets_->encoder);
  nets_->train(true);
  return accuracy;
}

EmbeddingMap VisionEstimator::embeddingMap() {
  nets_->train(false);
  const EmbeddingMap map = encoderEmbeddingMap(nets_->encoder, probe_, *task_, options_.probeTest);
  nets_->train(true);
  return map;
}

std::optional<double> VisionEstimator::supervisedAccuracy(int steps, int seed) {
  return supervisedReferenceAccuracy(options_, *task_, device_, steps, seed, probe_, cancelled_);
}

}  // namespace milab
