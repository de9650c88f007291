#pragma once
// A trained encoder's picture at the end of a run (method/embedding_map.h): its features of the first test images,
// projected to two dimensions, with each image's nearest neighbours. Torch header.
#include "encoder_probe.h"
#include "method/embedding_map.h"

namespace milab {

class TaskSampler;

// The first min(probeTest, 2000) test images of `task` (2000: a readable scatter, a 2000^2 search), read by `probe`.
EmbeddingMap encoderEmbeddingMap(ConvEncoder& encoder, const EncoderProbe& probe, const TaskSampler& task,
                                 int64_t probeTest);

}  // namespace milab
