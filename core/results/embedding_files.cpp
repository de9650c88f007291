#include "results/embedding_files.h"

#include <QTextStream>

#include "results/run_files.h"

namespace milab {

QStringList writeEmbeddingFiles(const QDir& folder, const EmbeddingMap& map) {
  QByteArray points, neighbours;
  {
    QTextStream out(&points);
    out.setRealNumberPrecision(10);
    out << "test_index,label,pc1,pc2\n";
    for (const EmbeddingMap::Point& p : map.points) out << p.index << ',' << p.label << ',' << p.x << ',' << p.y << '\n';
  }
  {
    QTextStream out(&neighbours);
    out.setRealNumberPrecision(10);
    out << "query,query_label,rank,neighbour,label,similarity\n";
    for (const EmbeddingMap::Retrieval& r : map.retrievals)
      for (int i = 0; i < r.neighbours.size(); ++i)
        out << r.query << ',' << map.labelOf(r.query) << ',' << i + 1 << ',' << r.neighbours[i] << ','
            << map.labelOf(r.neighbours[i]) << ',' << r.similarity[i] << '\n';
  }
  QStringList errors{saveAtomically(folder.filePath("embedding.csv"), points),
                     saveAtomically(folder.filePath("neighbours.csv"), neighbours)};
  errors.removeAll(QString());
  return errors;
}

}  // namespace milab
