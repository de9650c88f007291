#include "nn/embedding_projection.h"

#include <ATen/ATen.h>

namespace milab {

EmbeddingMap embeddingMapOf(const at::Tensor& features, const at::Tensor& labels, const at::Tensor& images,
                            const QStringList& classNames, int neighbours) {
  EmbeddingMap map;
  map.classNames = classNames;
  const int64_t n = features.size(0);
  if (n < 3) return map;
  const at::Tensor f = features.detach().to(at::kCPU, at::kDouble);
  const at::Tensor y = labels.to(at::kCPU, at::kLong).contiguous();

  // PCA: the centred features' covariance, its two largest eigenvalues (eigh sorts them ascending).
  const at::Tensor centred = f - f.mean(0, true);
  const at::Tensor covariance = at::matmul(centred.t(), centred) / double(n - 1);
  const auto [values, vectors] = at::linalg_eigh(covariance);
  const int64_t r = values.size(0);
  at::Tensor axes = vectors.narrow(1, std::max<int64_t>(0, r - 2), std::min<int64_t>(2, r)).flip(1);
  const at::Tensor largest = axes.abs().argmax(0);
  axes = axes * axes.gather(0, largest.unsqueeze(0)).sign();
  const at::Tensor projected = at::matmul(centred, axes).contiguous();
  const double total = values.clamp_min(0).sum().item<double>();
  for (int64_t a = 0; a < axes.size(1); ++a)
    map.explained[a] = total > 0 ? values[r - 1 - a].item<double>() / total : 0;

  const auto* p = projected.data_ptr<double>();
  const auto* label = y.data_ptr<int64_t>();
  const int64_t columns = projected.size(1);
  for (int64_t i = 0; i < n; ++i)
    map.points.push_back({p[i * columns], columns > 1 ? p[i * columns + 1] : 0.0, int(label[i]), int(i)});

  // Cosine nearest neighbours, the point itself excluded.
  const int64_t k = std::min<int64_t>(neighbours, n - 1);
  const at::Tensor unit = f / f.norm(2, {1}, true).clamp_min(1e-12);
  at::Tensor similarity = at::matmul(unit, unit.t());
  similarity.fill_diagonal_(-std::numeric_limits<double>::infinity());
  const auto [nearestSimilarity, nearest] = similarity.topk(k, 1);
  map.neighbourAgreement =
      y.index_select(0, nearest.reshape(-1)).reshape({n, k}).eq(y.unsqueeze(1)).to(at::kDouble).mean().item<double>();

  map.side = int(images.size(-1));
  const at::Tensor bytes = (images.detach().to(at::kCPU, at::kFloat).reshape({n, -1}) * 255)
                               .round()
                               .clamp(0, 255)
                               .to(at::kByte)
                               .contiguous();
  const auto keepImage = [&](int64_t index) {
    if (map.images.contains(int(index))) return;
    const at::Tensor row = bytes[index];
    map.images.insert(int(index), QByteArray(reinterpret_cast<const char*>(row.data_ptr<uint8_t>()), row.numel()));
  };
  for (int64_t c = 0; c < classNames.size(); ++c) {
    const at::Tensor members = y.eq(c).nonzero();
    if (members.size(0) == 0) continue;
    const int64_t q = members[0][0].item<int64_t>();
    EmbeddingMap::Retrieval retrieval;
    retrieval.query = int(q);
    keepImage(q);
    for (int64_t j = 0; j < k; ++j) {
      const int64_t m = nearest[q][j].item<int64_t>();
      retrieval.neighbours << int(m);
      retrieval.similarity << nearestSimilarity[q][j].item<double>();
      keepImage(m);
    }
    map.retrievals << retrieval;
  }
  return map;
}

}  // namespace milab
