// The supervised training loop (FlatAdam over the encoder and a linear classifier), then the probe.
#include "supervised_reference.h"

#include <ATen/ATen.h>
#include <torch/nn/modules/linear.h>

#include "method/estimator.h"
#include "nn/flat_adam.h"
#include "nn/mlp.h"
#include "tasks/task_sampler.h"

namespace milab {

double supervisedReferenceAccuracy(const VisionOptions& options, const TaskSampler& task, c10::Device device, int steps,
                                   int seed, const EncoderProbe& probe, const std::function<bool()>& cancelled) {
  at::Generator gen = estimatorGenerator(seed);
  at::Generator noise = deviceNoiseGenerator(device, seed, gen);
  ConvEncoder encoder(options.channels, gen);
  torch::nn::Linear classifier(encoder->outputs(), task.labelledImages()->classes);
  initLinear(classifier, gen);
  encoder->to(device);
  classifier->to(device);
  std::vector<at::Tensor> params = encoder->parameters();
  for (const at::Tensor& p : classifier->parameters()) params.push_back(p);
  FlatAdam adam(params, options.lr);
  for (int step = 0; step < steps; ++step) {
    if (cancelled()) throw EstimatorCancelled();
    at::Tensor labels;
    const Batch b = task.sampleLabelledJoint(options.batch, noise, &labels);
    const at::Tensor loss = at::cross_entropy_loss(classifier(encoder(asImages(b.x))), labels);
    adam.zero_grad();
    loss.backward();
    adam.step();
  }
  encoder->train(false);
  return probe.accuracy(encoder);
}

}  // namespace milab
