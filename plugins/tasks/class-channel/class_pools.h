#pragma once
// The items a class-channel task draws from: two classes, each split into a training pool and a held-out pool that
// share no item, as rows of numbers (an image's pixels, a text's hashed TF-IDF). Training rows draw from the
// training pools only, a finite set's held-out rows from the held-out pools only.
#include <ATen/core/Tensor.h>

#include <QList>
#include <QString>
#include <QStringList>

namespace milab {

enum class PoolPart { Training = 0, HeldOut = 1 };

struct ClassPools {
  QStringList classNames;    // the class bit 0 names, then the class bit 1 names
  at::Tensor items[2];       // per part: [M, width] float32, the first class's items, then the second's
  int64_t sizes[2][2] = {};  // [part][class]: how many items
  QStringList texts[2];      // per part, a text task's texts in the items' order (for pictures); empty for images
  int64_t width() const { return items[0].size(1); }
};

// Fashion-MNIST's images of two labels (0-9), average-pooled to side x side (28 divisible by side): its training
// split is the training pool, its test split the held-out pool. "" or one line.
QString loadImagePools(const QString& dir, const QList<int>& classes, int side, ClassPools* out);

// Two topics of the fortunes corpus (data/fortune_corpus.h). A text found in both topics is left out of both (a
// text's class must be a function of the text), a repeated one kept once; every fifth of a topic's remaining texts, in
// the file's order, is held out. Each text becomes `features` hashed TF-IDF columns (data/hashed_tfidf.h) whose idf is
// fitted on the training pools alone. "" or one line.
QString loadTextPools(const QString& dir, const QStringList& topics, int features, ClassPools* out);

}  // namespace milab
