#include "vision_estimator.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>

#include <algorithm>
#include <cmath>

#include "conv_encoder.h"
#include "key_queue.h"
#include "nn/embedding_projection.h"
#include "nn/flat_adam.h"
#include "nn/linear_probe.h"
#include "nn/mlp.h"

namespace milab {

namespace {

constexpr int64_t kProbeChunk = 1000;  // images per forward pass of the probe: bounds its memory
constexpr int64_t kMapImages = 2000;   // test images in the end-of-run map: a readable scatter, a 2000^2 search

at::Tensor asImages(const at::Tensor& flat) {
  const auto side = int64_t(std::lround(std::sqrt(double(flat.size(1)))));
  return flat.reshape({flat.size(0), 1, side, side});
}

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
  // MoCo (queue > 0): the y side's momentum copies of encoder and head, and earlier batches' keys.
  ConvEncoder keyEncoder{nullptr};
  Mlp keyHead{nullptr};
  std::unique_ptr<KeyQueue> queue;
  // The key networks' parameters and buffers (batch norm's running statistics follow the same average) beside the
  // online ones, in one order: gathered once, averaged every step.
  std::vector<at::Tensor> keyTensors, onlineTensors;

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
    if (o.queue > 0) {
      // Built from a copy of the generator (the online networks' draws, and so every run without a queue, stay
      // as they were), then set to the online weights: MoCo starts its key encoder as a copy.
      at::Generator spare = gen.clone();
      keyEncoder = ConvEncoder(o.channels, spare);
      keyHead = Mlp(r, r, o.embed, spare);
      keyEncoder->to(device);
      keyHead->to(device);
      const auto append = [](std::vector<at::Tensor>& to, const std::vector<at::Tensor>& more) {
        to.insert(to.end(), more.begin(), more.end());
      };
      for (const auto& [keys, online] : {std::pair{keyEncoder->parameters(), encoder->parameters()},
                                         std::pair{keyEncoder->buffers(), encoder->buffers()},
                                         std::pair{keyHead->parameters(), head->parameters()}}) {
        append(keyTensors, keys);
        append(onlineTensors, online);
      }
      torch::NoGradGuard noGrad;
      for (size_t i = 0; i < keyTensors.size(); ++i) {
        keyTensors[i].copy_(onlineTensors[i]);
        keyTensors[i].set_requires_grad(false);
      }
      queue = std::make_unique<KeyQueue>(o.queue, o.embed, device);
    }
  }
  void train(bool on) {
    encoder->train(on);
    head->train(on);
    if (conditionalHead) conditionalHead->train(on);
    if (keyEncoder) {
      keyEncoder->train(on);
      keyHead->train(on);
    }
  }
};

VisionEstimator::VisionEstimator(const EstimatorContext& ctx, VisionObjective objective)
    : options_(visionOptions(objective, ctx.params)), task_(ctx.task), device_(ctx.device), cancelled_(ctx.cancelled) {
  at::Generator gen = ctx.generator;
  nets_ = std::make_unique<Networks>(options_, gen, ctx.device);
}

VisionEstimator::~VisionEstimator() = default;

VisionScores VisionEstimator::scores(const Batch& batch, at::Tensor* batchKeys) {
  const int64_t b = batch.x.size(0);
  // One pass of f over the views the objective reads: one batch-norm statistic over all of them, and fewer, larger
  // convolutions. InfoMin's x <-> y never sees x' (not even in its batch statistics). With a queue, y goes through
  // the momentum copy instead, without a gradient.
  const bool readsSubview = options_.objective != VisionObjective::Nce, momentum = bool(nets_->keyEncoder);
  std::vector<at::Tensor> views{batch.x};
  if (readsSubview) views.push_back(batch.xp);
  if (!momentum) views.push_back(batch.y);
  const at::Tensor h = nets_->encoder(asImages(at::cat(views)));
  const at::Tensor hx = h.narrow(0, 0, b);
  const at::Tensor hxp = readsSubview ? h.narrow(0, b, b) : at::Tensor();
  at::Tensor ky;
  if (momentum) {
    torch::NoGradGuard noGrad;
    const at::Tensor own = nets_->keyHead(nets_->keyEncoder(asImages(batch.y)));
    if (batchKeys) *batchKeys = own;
    ky = at::cat({own, nets_->queue->keys()});  // the joint pairs stay on the diagonal of the first b columns
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
  if (nets_->keyEncoder)  // MoCo: the key networks follow the online ones before they encode
    momentumUpdate(nets_->keyTensors, nets_->onlineTensors, options_.momentum);
  at::Tensor keys;
  const std::vector<at::Tensor> terms = visionTerms(options_.objective, scores(batch, &keys));
  at::Tensor objective = terms.front();
  for (size_t i = 1; i < terms.size(); ++i) objective = objective + terms[i];
  nets_->adam->zero_grad();
  const at::Tensor loss = -objective;
  loss.backward();
  nets_->adam->step();
  if (keys.defined()) nets_->queue->push(keys);
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
  const double accuracy = probeOf(nets_->encoder);
  nets_->train(true);
  return accuracy;
}

at::Tensor VisionEstimator::featuresOf(ConvEncoder& encoder, const at::Tensor& images, int64_t n) const {
  torch::NoGradGuard noGrad;
  std::vector<at::Tensor> chunks;
  for (int64_t at = 0; at < n; at += kProbeChunk) {
    if (cancelled_()) throw EstimatorCancelled();
    chunks.push_back(encoder(images.narrow(0, at, std::min(kProbeChunk, n - at))));
  }
  return at::cat(chunks);
}

double VisionEstimator::probeOf(ConvEncoder& encoder) const {
  const LabelledImages* data = task_->labelledImages();
  const int64_t nTrain = std::min(options_.probeTrain, data->trainImages.size(0));
  const int64_t nTest = std::min(options_.probeTest, data->testImages.size(0));
  const at::Tensor train = featuresOf(encoder, data->trainImages, nTrain);
  const at::Tensor test = featuresOf(encoder, data->testImages, nTest);
  return linearProbeAccuracy(train, data->trainLabels.narrow(0, 0, nTrain), test, data->testLabels.narrow(0, 0, nTest),
                             data->classes);
}

EmbeddingMap VisionEstimator::embeddingMap() {
  const LabelledImages* data = task_->labelledImages();
  const int64_t n = std::min({options_.probeTest, kMapImages, data->testImages.size(0)});
  nets_->train(false);
  const at::Tensor features = featuresOf(nets_->encoder, data->testImages, n);
  nets_->train(true);
  return embeddingMapOf(features, data->testLabels.narrow(0, 0, n), data->testImages.narrow(0, 0, n), data->classNames);
}

std::optional<double> VisionEstimator::supervisedAccuracy(int steps, int seed) {
  // Its own generators from the run's seed: the same encoder at the start as every objective of this seed, and
  // the same labelled batches whichever objective asks first.
  at::Generator gen = estimatorGenerator(seed);
  at::Generator noise = deviceNoiseGenerator(device_, seed, gen);
  ConvEncoder encoder(options_.channels, gen);
  torch::nn::Linear classifier(encoder->outputs(), task_->labelledImages()->classes);
  initLinear(classifier, gen);
  encoder->to(device_);
  classifier->to(device_);
  std::vector<at::Tensor> params = encoder->parameters();
  for (const at::Tensor& p : classifier->parameters()) params.push_back(p);
  FlatAdam adam(params, options_.lr);
  for (int step = 0; step < steps; ++step) {
    if (cancelled_()) throw EstimatorCancelled();
    at::Tensor labels;
    const Batch b = task_->sampleLabelledJoint(options_.batch, noise, &labels);
    const at::Tensor loss = at::cross_entropy_loss(classifier(encoder(asImages(b.x))), labels);
    adam.zero_grad();
    loss.backward();
    adam.step();
  }
  encoder->train(false);
  return probeOf(encoder);
}

}  // namespace milab
