// The end-of-run features through nn/embedding_projection.h's projection and neighbour search.
#include "encoder_embedding_map.h"

#include <algorithm>

#include "nn/embedding_projection.h"
#include "tasks/task_sampler.h"

namespace milab {

EmbeddingMap encoderEmbeddingMap(ConvEncoder& encoder, const EncoderProbe& probe, const TaskSampler& task,
                                 int64_t probeTest) {
  constexpr int64_t kMapImages = 2000;
  const LabelledImages* data = task.labelledImages();
  const int64_t n = std::min({probeTest, kMapImages, data->testImages.size(0)});
  const at::Tensor features = probe.features(encoder, data->testImages, n);
  return embeddingMapOf(features, data->testLabels.narrow(0, 0, n), data->testImages.narrow(0, 0, n), data->classNames);
}

}  // namespace milab
