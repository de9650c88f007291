#pragma once
// The vision family as an Estimator: a CNN encoder f and projection heads trained on (x, x', y) image views by one
// of Table 1's objectives (vision_objectives.h), read on the curve by its objective's terms and, as a
// RepresentationProbe, by a linear probe of f's output on the task's labelled images. It composes its parts, each a
// file: the objectives, MoCo's key encoder and queue (momentum_keys.h), the probe (encoder_probe.h), the embedding
// map (encoder_embedding_map.h) and the supervised reference (supervised_reference.h). A task without labelled
// images is refused at validation (MethodInfo::readsImages asks for TaskInfo::capabilities.images).
#include <memory>

#include "conv_encoder.h"
#include "encoder_probe.h"
#include "method/estimator.h"
#include "method/method_plugin.h"
#include "method/representation_probe.h"
#include "vision_objectives.h"
#include "vision_options.h"

namespace milab {

class VisionEstimator final : public Estimator, public RepresentationProbe {
 public:
  VisionEstimator(const EstimatorContext& ctx, VisionObjective objective);
  ~VisionEstimator() override;

  int64_t batchSize() const override { return options_.batch; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;
  int probeEvery() const override { return options_.probeEvery; }
  double probeAccuracy() override;
  bool wantsSupervisedReference() const override { return options_.supervised; }
  std::optional<double> supervisedAccuracy(int steps, int seed) override;
  // The first min(probe_test, 2000) test images' encoder features, projected and searched.
  EmbeddingMap embeddingMap() override;

 private:
  // The critic's scores; with a queue, `batchKeys` (when given) receives the batch's own keys to enqueue.
  VisionScores scores(const Batch& batch, at::Tensor* batchKeys = nullptr);

  struct Networks;
  VisionOptions options_;
  const TaskSampler* task_;
  c10::Device device_;
  std::function<bool()> cancelled_;
  EncoderProbe probe_;
  std::unique_ptr<Networks> nets_;
};

}  // namespace milab
