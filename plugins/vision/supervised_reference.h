#pragma once
// The vision experiment's ceiling: the same encoder trained with the labels (a linear classifier on one view, cross
// entropy), then read by the same probe, so that an objective's probe accuracy has its supervised reference beside
// it. Its own generators from the run's seed: the same encoder at the start as every objective of that seed, and the
// same labelled batches whichever objective asks first. Torch header.
#include <c10/core/Device.h>

#include <functional>

#include "encoder_probe.h"
#include "vision_options.h"

namespace milab {

class TaskSampler;

// `steps` steps at the options' batch and lr on `device`; throws EstimatorCancelled when `cancelled()`.
double supervisedReferenceAccuracy(const VisionOptions& options, const TaskSampler& task, c10::Device device, int steps,
                                   int seed, const EncoderProbe& probe, const std::function<bool()>& cancelled);

}  // namespace milab
