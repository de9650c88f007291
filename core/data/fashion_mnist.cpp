#include "data/fashion_mnist.h"

#include <ATen/ATen.h>

#include <QDir>
#include <QDateTime>
#include <QFileInfo>
#include <QMutex>
#include <algorithm>
#include <vector>

#include "data/idx_file.h"

namespace milab {

namespace {

constexpr int kSide = 28, kClasses = 10;

QString pathOf(const QString& dir, const QString& split, const char* kind) {
  return QDir(dir).filePath(QStringLiteral("%1-%2-ubyte.gz").arg(split, kind));
}

// One split's images and labels read and checked against each other and the data set's shape. "" or the line.
QString readSplit(const QString& dir, const QString& split, IdxArray* images, IdxArray* labels) {
  const QString imagesPath = pathOf(dir, split, "images-idx3"), labelsPath = pathOf(dir, split, "labels-idx1");
  if (const QString err = readIdxGz(imagesPath, 3, images); !err.isEmpty()) return err;
  if (const QString err = readIdxGz(labelsPath, 1, labels); !err.isEmpty()) return err;
  if (images->shape[0] < 1) return QStringLiteral("dataset: '%1' holds no images").arg(imagesPath);
  if (images->shape[1] != kSide || images->shape[2] != kSide)
    return QStringLiteral("dataset: '%1' holds %2 x %3 images; Fashion-MNIST's are %4 x %4")
        .arg(imagesPath)
        .arg(images->shape[1])
        .arg(images->shape[2])
        .arg(kSide);
  if (labels->shape[0] != images->shape[0])
    return QStringLiteral("dataset: '%1' holds %2 labels for the %3 images of '%4'")
        .arg(labelsPath)
        .arg(labels->shape[0])
        .arg(images->shape[0])
        .arg(imagesPath);
  const auto bad = std::find_if(labels->values.begin(), labels->values.end(), [](uint8_t v) { return v >= kClasses; });
  if (bad != labels->values.end())
    return QStringLiteral("dataset: '%1' label %2 (item %3) is not one of the %4 classes (0 to %5)")
        .arg(labelsPath)
        .arg(*bad)
        .arg(bad - labels->values.begin())
        .arg(kClasses)
        .arg(kClasses - 1);
  return {};
}

// The four files' identity (path, size, time): a verdict holds while none of them changes.
QString filesKey(const QString& dir) {
  QString key;
  for (const char* split : {"train", "t10k"})
    for (const char* kind : {"images-idx3", "labels-idx1"}) {
      const QFileInfo info(pathOf(dir, split, kind));
      key += QStringLiteral("%1|%2|%3;")
                 .arg(info.absoluteFilePath())
                 .arg(info.size())
                 .arg(info.lastModified().toMSecsSinceEpoch());
    }
  return key;
}

}  // namespace

QStringList fashionMnistClassNames() {
  return {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"};
}

QString fashionMnistDir() {
  const QString env = qEnvironmentVariable("MILAB_FASHION_MNIST");
  return env.isEmpty() ? QStringLiteral("/usr/share/datasets/fashion-mnist") : env;
}

QString checkFashionMnist(const QString& dir) {
  for (const char* split : {"train", "t10k"})
    for (const char* kind : {"images-idx3", "labels-idx1"}) {
      const QString path = pathOf(dir, split, kind);
      if (!QFileInfo::exists(path))
        return QStringLiteral(
                   "dataset: Fashion-MNIST not found ('%1' is missing); install it with "
                   "'sudo apt-get install dataset-fashion-mnist', or point MILAB_FASHION_MNIST at a folder holding "
                   "its four .gz files")
            .arg(path);
    }
  // Every cell of a grid validates its task: the files are read once while they stay the same.
  static QMutex mutex;
  static QString checkedKey, verdict;
  const QString key = filesKey(dir);
  QMutexLocker lock(&mutex);
  if (key != checkedKey) {
    verdict.clear();
    for (const char* split : {"train", "t10k"}) {
      IdxArray images, labels;
      if (verdict.isEmpty()) verdict = readSplit(dir, split, &images, &labels);
    }
    checkedKey = key;
  }
  return verdict;
}

QString loadFashionMnist(const QString& dir, const QString& split, int64_t limit, ImageSet* out) {
  if (const QString err = checkFashionMnist(dir); !err.isEmpty()) return err;
  IdxArray images, labels;
  if (const QString err = readSplit(dir, split, &images, &labels); !err.isEmpty()) return err;  // changed since
  const int64_t n = limit > 0 ? std::min(limit, images.shape[0]) : images.shape[0];
  out->images = at::from_blob(images.values.data(), {n, kSide * kSide}, at::kByte).to(at::kFloat) / 255.0;
  out->labels = at::from_blob(labels.values.data(), {n}, at::kByte).to(at::kLong);
  return {};
}

}  // namespace milab
