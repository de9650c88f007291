#include "class_pools.h"

#include <ATen/ATen.h>

#include "data/fashion_mnist.h"
#include "data/fortune_corpus.h"
#include "data/hashed_tfidf.h"
#include "data/topic_split.h"

namespace milab {

namespace {

constexpr int kFashionSide = 28;

// One split's images of the two labels, pooled to side x side, the first label's first: [M, side * side].
at::Tensor imagesOfClasses(const ImageSet& set, const QList<int>& classes, int side, int64_t* sizes) {
  std::vector<at::Tensor> parts;
  for (int c = 0; c < 2; ++c) {
    const at::Tensor rows = at::nonzero(set.labels == classes[c]).flatten();
    sizes[c] = rows.size(0);
    at::Tensor images = set.images.index_select(0, rows).reshape({-1, 1, kFashionSide, kFashionSide});
    if (side != kFashionSide) images = at::avg_pool2d(images, kFashionSide / side);
    parts.push_back(images.reshape({-1, side * side}).contiguous());
  }
  return at::cat(parts);
}

}  // namespace

QString loadImagePools(const QString& dir, const QList<int>& classes, int side, ClassPools* out) {
  ImageSet train, test;
  if (QString err = loadFashionMnist(dir, "train", 0, &train); !err.isEmpty()) return err;
  if (QString err = loadFashionMnist(dir, "t10k", 0, &test); !err.isEmpty()) return err;
  ClassPools pools;
  const QStringList names = fashionMnistClassNames();
  pools.classNames = {names[classes[0]], names[classes[1]]};
  pools.items[int(PoolPart::Training)] = imagesOfClasses(train, classes, side, pools.sizes[0]);
  pools.items[int(PoolPart::HeldOut)] = imagesOfClasses(test, classes, side, pools.sizes[1]);
  *out = pools;
  return {};
}

QString loadTextPools(const QString& dir, const QStringList& topics, int features, ClassPools* out) {
  if (QString err = checkFortunes(dir); !err.isEmpty()) return err;
  QStringList texts[2];
  for (int c = 0; c < 2; ++c)
    if (QString err = loadFortuneTopic(dir, topics[c], &texts[c]); !err.isEmpty()) return err;
  const TopicSplit split = splitTopics({texts[0], texts[1]}, kTopicHeldOutEvery);
  ClassPools pools;
  pools.classNames = topics;
  for (int part = 0; part < 2; ++part) {
    pools.texts[part] = split.texts[part];
    for (int label : split.labels[part]) ++pools.sizes[part][label];
  }
  for (int part = 0; part < 2; ++part)
    for (int c = 0; c < 2; ++c)
      if (pools.sizes[part][c] < 1)
        return QStringLiteral("topics: topic '%1' has too few texts of its own for a %2 pool")
            .arg(topics[c], part == 0 ? "training" : "held-out");
  const HashedTfidf tfidf(pools.texts[0], features);
  for (int part = 0; part < 2; ++part) pools.items[part] = tfidf.transform(pools.texts[part]);
  *out = pools;
  return {};
}

}  // namespace milab
