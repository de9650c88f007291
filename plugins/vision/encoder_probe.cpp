// The probe's features in chunks and the linear classifier on them (nn/linear_probe.h).
#include "encoder_probe.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>

#include <algorithm>
#include <cmath>

#include "method/estimator.h"
#include "nn/linear_probe.h"
#include "tasks/task_sampler.h"

namespace milab {

namespace {
constexpr int64_t kProbeChunk = 1000;  // images per forward pass of the probe: bounds its memory
}  // namespace

at::Tensor asImages(const at::Tensor& flat) {
  const auto side = int64_t(std::lround(std::sqrt(double(flat.size(1)))));
  return flat.reshape({flat.size(0), 1, side, side});
}

EncoderProbe::EncoderProbe(const TaskSampler* task, int64_t probeTrain, int64_t probeTest,
                           std::function<bool()> cancelled)
    : task_(task), probeTrain_(probeTrain), probeTest_(probeTest), cancelled_(std::move(cancelled)) {}

at::Tensor EncoderProbe::features(ConvEncoder& encoder, const at::Tensor& images, int64_t n) const {
  torch::NoGradGuard noGrad;
  std::vector<at::Tensor> chunks;
  for (int64_t at = 0; at < n; at += kProbeChunk) {
    if (cancelled_()) throw EstimatorCancelled();
    chunks.push_back(encoder(images.narrow(0, at, std::min(kProbeChunk, n - at))));
  }
  return at::cat(chunks);
}

double EncoderProbe::accuracy(ConvEncoder& encoder) const {
  const LabelledImages* data = task_->labelledImages();
  const int64_t nTrain = std::min(probeTrain_, data->trainImages.size(0));
  const int64_t nTest = std::min(probeTest_, data->testImages.size(0));
  const at::Tensor train = features(encoder, data->trainImages, nTrain);
  const at::Tensor test = features(encoder, data->testImages, nTest);
  return linearProbeAccuracy(train, data->trainLabels.narrow(0, 0, nTrain), test, data->testLabels.narrow(0, 0, nTest),
                             data->classes);
}

}  // namespace milab
