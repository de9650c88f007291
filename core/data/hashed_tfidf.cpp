#include "data/hashed_tfidf.h"

#include <ATen/ATen.h>

#include <QRegularExpression>
#include <cmath>

namespace milab {

QStringList HashedTfidf::wordsOf(const QString& text) {
  static const QRegularExpression word(QStringLiteral("[a-z]{2,}"));
  QStringList words;
  for (auto it = word.globalMatch(text.toLower()); it.hasNext();) words << it.next().captured(0);
  return words;
}

void HashedTfidf::bucketOf(const QString& word, int features, int* column, double* sign) {
  uint32_t hash = 2166136261u;  // FNV-1a's offset basis and prime
  for (const char byte : word.toUtf8()) {
    hash ^= uint8_t(byte);
    hash *= 16777619u;
  }
  *column = int(hash % uint32_t(features));
  *sign = (hash >> 31) ? -1.0 : 1.0;
}

std::vector<std::pair<int, double>> HashedTfidf::bucketsOf(const QString& text, int features) {
  std::vector<std::pair<int, double>> buckets;
  for (const QString& w : wordsOf(text)) {
    int column = 0;
    double sign = 0;
    bucketOf(w, features, &column, &sign);
    buckets.emplace_back(column, sign);
  }
  return buckets;
}

HashedTfidf::HashedTfidf(const QStringList& corpus, int features) : features_(features), idf_(features, 0.0) {
  std::vector<int> documents(features, 0);
  for (const QString& text : corpus) {
    std::vector<bool> seen(features, false);
    for (const auto& [column, sign] : bucketsOf(text, features)) seen[column] = true;
    for (int c = 0; c < features; ++c) documents[c] += seen[c];
  }
  const double n = double(corpus.size());
  for (int c = 0; c < features; ++c) idf_[c] = std::log((1.0 + n) / (1.0 + documents[c])) + 1.0;
}

at::Tensor HashedTfidf::transform(const QStringList& texts) const {
  at::Tensor out = at::zeros({int64_t(texts.size()), features_}, at::kDouble);
  auto rows = out.accessor<double, 2>();
  for (int64_t i = 0; i < texts.size(); ++i) {
    for (const auto& [column, sign] : bucketsOf(texts[int(i)], features_)) rows[i][column] += sign;
    double norm = 0;
    for (int c = 0; c < features_; ++c) {
      rows[i][c] *= idf_[c];
      norm += rows[i][c] * rows[i][c];
    }
    if (norm > 0)
      for (int c = 0; c < features_; ++c) rows[i][c] /= std::sqrt(norm);
  }
  return out.to(at::kFloat);
}

}  // namespace milab
