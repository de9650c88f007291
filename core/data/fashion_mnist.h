#pragma once
// Fashion-MNIST (Xiao et al., 2017) as Debian's `dataset-fashion-mnist` installs it: gzipped IDX files in
// /usr/share/datasets/fashion-mnist (or $MILAB_FASHION_MNIST). Images are read as float pixels in [0, 1].
#include <ATen/core/Tensor.h>

#include <QString>
#include <QStringList>

namespace milab {

struct ImageSet {
  at::Tensor images;  // [N, 784] float32 in [0, 1]
  at::Tensor labels;  // [N] int64 in 0..9
};

// $MILAB_FASHION_MNIST when set, else Debian's folder.
QString fashionMnistDir();

// The ten labels' names, label 0 first (the data set's own README).
QStringList fashionMnistClassNames();

// "" when the four files are there and hold Fashion-MNIST (data/idx_file.h: gzip, magic, sizes; 28 x 28 images, as
// many labels, each one of the 10 classes), else one line: how to install them, or the file and what is wrong with it.
// Reads them once while they keep their size and time (the first validation reads about 30 MB of gzip).
QString checkFashionMnist(const QString& dir);

// The training split's size: what a run on all of it reads.
inline constexpr int kFashionMnistTrainImages = 60000;

// The first `limit` examples (0: all) of "train" (60000) or "t10k" (10000). Returns "" or one line; when the
// files are missing it says how to install them.
QString loadFashionMnist(const QString& dir, const QString& split, int64_t limit, ImageSet* out);

}  // namespace milab
