#include "cli/hashing_runner.h"

#include <QDir>
#include <cstdio>

#include "hashing/hashing_experiment.h"
#include "plot/hashing_outputs.h"
#include "results/hashing_files.h"

namespace milab {

int runHashingCommand(const HashingSpec& spec, const MethodRegistry& registry, const QString& outDir,
                      const std::atomic<bool>& interrupted) {
  const QDir dir(outDir);
  QList<HashingRow> rows;
  QStringList errors;
  const int topK = HashingOptions::from(spec.params).topK;
  auto onRow = [&](const HashingRow& r) {
    rows << r;
    std::printf("m = %3d  %-4s  top-%d precision %.4f  (%d distinct training codes, entropy %.3f bits per bit, %.1f s)\n",
                r.bits, r.method.toUtf8().constData(), topK, r.precision, r.distinctCodes, r.bitEntropy, r.seconds);
    std::fflush(stdout);
    errors << writeHashingCsv(dir.filePath("hashing.csv"), rows);  // kept if interrupted
  };
  const HashingResult result = runHashing(spec, registry, onRow, interrupted);
  if (result.chancePrecision > 0)
    std::printf("chance (a random ranking): top-%d precision %.4f\n", topK, result.chancePrecision);
  errors << writeHashingOutputs(outDir, spec, result);
  errors.removeAll(QString());
  for (const QString& e : errors) std::fprintf(stderr, "milab-cli: %s\n", e.toLocal8Bit().constData());
  if (!result.error.isEmpty()) {
    std::fprintf(stderr, "milab-cli: hashing failed: %s\n", result.error.toLocal8Bit().constData());
    return 1;
  }
  if (result.cancelled) return 130;
  return errors.isEmpty() ? 0 : 1;
}

}  // namespace milab
