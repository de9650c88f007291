#include "data/fashion_mnist.h"

#include <ATen/ATen.h>
#include <zlib.h>

#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <vector>

namespace milab {

namespace {

// An IDX file (big-endian magic 0x0000 08 NDIM, then NDIM sizes, then unsigned bytes), read through zlib.
QString readIdxGz(const QString& path, int expectedDims, std::vector<int64_t>* shape, std::vector<uint8_t>* bytes) {
  gzFile f = gzopen(QFile::encodeName(path).constData(), "rb");
  if (!f) return QStringLiteral("dataset: cannot open '%1'").arg(path);
  auto readExactly = [&](void* dst, unsigned n) { return gzread(f, dst, n) == static_cast<int>(n); };
  unsigned char header[4];
  QString err;
  if (!readExactly(header, 4) || header[0] != 0 || header[1] != 0 || header[2] != 0x08 || header[3] != expectedDims) {
    err = QStringLiteral("dataset: '%1' is not an IDX file of unsigned bytes with %2 dimensions")
              .arg(path)
              .arg(expectedDims);
  } else {
    int64_t total = 1;
    for (int d = 0; d < expectedDims && err.isEmpty(); ++d) {
      unsigned char s[4];
      if (!readExactly(s, 4)) err = QStringLiteral("dataset: '%1' is truncated").arg(path);
      shape->push_back((int64_t{s[0]} << 24) | (s[1] << 16) | (s[2] << 8) | s[3]);
      total *= shape->back();
    }
    if (err.isEmpty()) {
      bytes->resize(total);
      if (!readExactly(bytes->data(), static_cast<unsigned>(total)))
        err = QStringLiteral("dataset: '%1' is truncated").arg(path);
    }
  }
  gzclose(f);
  return err;
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
      const QString path = QDir(dir).filePath(QStringLiteral("%1-%2-ubyte.gz").arg(split, kind));
      if (!QFileInfo::exists(path))
        return QStringLiteral(
                   "dataset: Fashion-MNIST not found ('%1' is missing); install it with "
                   "'sudo apt-get install dataset-fashion-mnist', or point MILAB_FASHION_MNIST at a folder holding "
                   "its four .gz files")
            .arg(path);
    }
  return {};
}

QString loadFashionMnist(const QString& dir, const QString& split, int64_t limit, ImageSet* out) {
  const QString missing = checkFashionMnist(dir);
  if (!missing.isEmpty()) return missing;
  const QString images = QDir(dir).filePath(split + "-images-idx3-ubyte.gz");
  const QString labels = QDir(dir).filePath(split + "-labels-idx1-ubyte.gz");
  std::vector<int64_t> imageShape, labelShape;
  std::vector<uint8_t> imageBytes, labelBytes;
  QString err = readIdxGz(images, 3, &imageShape, &imageBytes);
  if (err.isEmpty()) err = readIdxGz(labels, 1, &labelShape, &labelBytes);
  if (!err.isEmpty()) return err;
  if (imageShape[0] != labelShape[0])
    return QStringLiteral("dataset: %1 images but %2 labels in '%3'").arg(imageShape[0]).arg(labelShape[0]).arg(dir);
  const int64_t n = limit > 0 ? std::min(limit, imageShape[0]) : imageShape[0], pixels = imageShape[1] * imageShape[2];
  out->images = at::from_blob(imageBytes.data(), {n, pixels}, at::kByte).to(at::kFloat) / 255.0;
  out->labels = at::from_blob(labelBytes.data(), {n}, at::kByte).to(at::kLong);
  return {};
}

}  // namespace milab
