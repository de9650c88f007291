#pragma once
// A learned representation's end-of-run picture (method/embedding_map.h) drawn once for the window's Embedding tab
// and the runner's embedding.png: the test images on two principal axes, one colour per class with the class legend
// beside the cloud, and a sheet of retrievals (each class's first test image, then its nearest neighbours framed
// green when of its class, red when not).
#include <QImage>
#include <QString>

#include "method/embedding_map.h"

class QCustomPlot;
class QFont;

namespace milab {

// Once per plot: the class legend in its own column beside the data.
void prepareEmbeddingScatter(QCustomPlot* plot);
// Replaces the plot's graphs with the map's classes and fits the axes.
void drawEmbeddingScatter(QCustomPlot* plot, const EmbeddingMap& map);
// The retrievals as one image: a header row, then a row per query (its class name, the query, its neighbours).
QImage retrievalSheet(const EmbeddingMap& map, const QFont& font);
// One line for the figure's title: how many images, the axes' shares of variance, the neighbours' agreement.
QString embeddingCaption(const EmbeddingMap& map);
// The scatter and the sheet side by side under `title`, as a PNG at `path`; "" or an error line naming the file.
QString exportEmbeddingPng(const EmbeddingMap& map, const QString& title, const QString& path);

}  // namespace milab
