#pragma once
// The end-of-run picture of a learned representation (DEMI's vision experiment): test images placed by the two
// leading principal axes of their frozen features, coloured by class, and a few test images with their nearest
// neighbours in feature space. Torch-free: the run's result carries it to the window and to embedding.csv.
#include <QByteArray>
#include <QList>
#include <QMap>
#include <QStringList>
#include <QVector>

namespace milab {

struct EmbeddingMap {
  struct Point {
    double x = 0, y = 0;  // coordinates on the first and second principal axis
    int label = 0;
    int index = 0;  // the test image's index
  };
  struct Retrieval {
    int query = 0;               // a test image's index: the first of its class
    QVector<int> neighbours;     // the nearest other mapped images, nearest first (cosine similarity of features)
    QVector<double> similarity;  // their cosine similarities to the query
  };
  QVector<Point> points;
  double explained[2] = {0, 0};  // the share of the features' variance along each axis
  QList<Retrieval> retrievals;
  // The share of every point's k nearest neighbours that have its class (k = a retrieval's length): how well the
  // representation's geometry alone separates the classes.
  double neighbourAgreement = 0;
  QStringList classNames;        // label -> name
  int side = 0;                  // the images' side in pixels
  QMap<int, QByteArray> images;  // side x side grey bytes (0 black, 255 white) of every image a retrieval shows

  bool isEmpty() const { return points.isEmpty(); }
  // The class of a mapped image, by its test index (a retrieval's query or neighbour); -1 when not mapped.
  int labelOf(int index) const {
    for (const Point& p : points)
      if (p.index == index) return p.label;
    return -1;
  }
};

}  // namespace milab
