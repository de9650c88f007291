#pragma once
// Builds an EmbeddingMap from frozen features: PCA to two axes (the covariance's leading eigenvectors, each signed
// so that its largest loading is positive: the same features give the same picture) and cosine nearest neighbours.
#include <ATen/core/Tensor.h>

#include "method/embedding_map.h"

namespace milab {

// features [n, r], labels [n] (int64, in [0, classNames.size())), images [n, 1, S, S] in [0, 1]; row i is test
// image i. One retrieval per class present (its first image), each with `neighbours` neighbours among the n.
EmbeddingMap embeddingMapOf(const at::Tensor& features, const at::Tensor& labels, const at::Tensor& images,
                            const QStringList& classNames, int neighbours = 5);

}  // namespace milab
