#pragma once
// The Embedding tab: a finished learned representation's picture (method/embedding_map.h). Left, the test images
// on the two leading principal axes of their encoder features, one colour per class; right, one test image of
// each class beside its nearest neighbours in feature space, framed green where the neighbour has its class.
#include <QWidget>

#include "method/embedding_map.h"

class QCustomPlot;
class QLabel;
class QScrollArea;

namespace milab {

class EmbeddingView : public QWidget {
  Q_OBJECT
 public:
  explicit EmbeddingView(QWidget* parent = nullptr);
  // Draws `map`, titled by the run it belongs to.
  void setMap(const EmbeddingMap& map, const QString& runLabel);

 private:
  QLabel* title_;
  QCustomPlot* scatter_;
  QLabel* retrievals_;
  QScrollArea* sheetArea_ = nullptr;  // around retrievals_
};

}  // namespace milab
