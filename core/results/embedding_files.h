#pragma once
// A learned representation's end-of-run picture (method/embedding_map.h) as two CSV files beside curve.csv:
// embedding.csv (test_index, label, pc1, pc2) and neighbours.csv (query, rank, neighbour, label, similarity).
#include <QDir>
#include <QStringList>

#include "method/embedding_map.h"

namespace milab {

// Writes both files into `folder`; returns the error lines (empty when both were written).
QStringList writeEmbeddingFiles(const QDir& folder, const EmbeddingMap& map);

}  // namespace milab
