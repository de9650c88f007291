#pragma once
// How the vision estimator reads an encoder (DEMI's sec. 5.2 protocol): its features of the task's labelled images,
// a chunk of images per forward pass (bounded memory; polls the run's cancel), and the accuracy of a linear
// classifier fitted on the train images' features and scored on the test images'. The encoder is read as it is
// (the caller puts it in eval mode).
#include <ATen/core/Tensor.h>

#include <functional>

#include "conv_encoder.h"

namespace milab {

class TaskSampler;

class EncoderProbe {
 public:
  // `task` (an image task with labels) outlives the probe; at most probeTrain and probeTest images of each part.
  EncoderProbe(const TaskSampler* task, int64_t probeTrain, int64_t probeTest, std::function<bool()> cancelled);

  // `encoder`'s features of the first n of `images`; throws EstimatorCancelled when the run is cancelled.
  at::Tensor features(ConvEncoder& encoder, const at::Tensor& images, int64_t n) const;
  // The linear probe's share of test images classified right, in [0, 1].
  double accuracy(ConvEncoder& encoder) const;

 private:
  const TaskSampler* task_;
  int64_t probeTrain_, probeTest_;
  std::function<bool()> cancelled_;
};

// Flat rows [B, S * S] as images [B, 1, S, S] (the tasks hand images flattened).
at::Tensor asImages(const at::Tensor& flat);

}  // namespace milab
