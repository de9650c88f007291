#pragma once
// Texts as vectors the lab computes itself (no language model is reachable here): a hashed bag of words weighted by
// inverse document frequency, as scikit-learn's HashingVectorizer followed by its TfidfTransformer (smooth idf,
// L2-normalised rows): words are runs of two or more letters, lower-cased; each is hashed (FNV-1a, 32 bits) to one
// of `features` columns with a sign from the hash's top bit, so that collisions cancel on average.
#include <ATen/core/Tensor.h>

#include <QStringList>
#include <utility>
#include <vector>

namespace milab {

class HashedTfidf {
 public:
  // The idf of each column over `corpus` (the texts a model may see: a training part only).
  HashedTfidf(const QStringList& corpus, int features);

  // [texts.size(), features] float32, each row of unit norm (a text without a word: zeros).
  at::Tensor transform(const QStringList& texts) const;

  // The column and sign of one word (exposed for the tests' transcription).
  static void bucketOf(const QString& word, int features, int* column, double* sign);
  static QStringList wordsOf(const QString& text);

 private:
  // The column and sign of each of the text's words, in order: what both the idf and a row read.
  static std::vector<std::pair<int, double>> bucketsOf(const QString& text, int features);

  int features_;
  std::vector<double> idf_;
};

}  // namespace milab
