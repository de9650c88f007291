#include "plot/hashing_outputs.h"

#include <qcustomplot.h>

#include <QDir>

#include "plot/hashing_plot.h"
#include "plot/plot_export.h"
#include "results/hashing_files.h"

namespace milab {

QStringList writeHashingOutputs(const QString& outDir, const HashingSpec& spec, const HashingResult& result) {
  const QDir dir(outDir);
  QStringList errors{writeHashingCsv(dir.filePath("hashing.csv"), result.rows),
                     writeHashingSummary(dir.filePath("summary.json"), spec, result)};
  QCustomPlot plot;
  drawHashingPlot(&plot, result, HashingOptions::from(spec.params).topK);
  for (const char* name : {"hashing.png", "hashing.pdf", "hashing.svg"})
    errors << exportPlot(&plot, dir.filePath(name));
  errors.removeAll(QString());
  return errors;
}

}  // namespace milab
