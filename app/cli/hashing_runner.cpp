#include "cli/hashing_runner.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <cstdio>

#include "hashing/hashing_experiment.h"
#include "results/run_files.h"

namespace milab {

namespace {

QString writeCsv(const QString& path, const QList<HashingRow>& rows) {
  QByteArray bytes;
  QTextStream out(&bytes);
  out << "bits,method,precision,distinct_train_codes,estimate_nats,seconds\n";
  for (const HashingRow& r : rows)
    out << r.bits << ',' << r.method << ',' << QString::number(r.precision, 'g', 10) << ',' << r.distinctCodes << ','
        << QString::number(r.estimate, 'g', 10) << ',' << QString::number(r.seconds, 'g', 6) << '\n';
  out.flush();
  return saveAtomically(path, bytes);
}

QString writeSummary(const QString& path, const HashingSpec& spec, const HashingResult& result) {
  QJsonObject experiment = QJsonObject::fromVariantMap(spec.params);
  QJsonArray bits, rows;
  for (int m : spec.bits) bits.append(m);
  experiment.insert("bits", bits);
  for (const HashingRow& r : result.rows)
    rows.append(QJsonObject{{"bits", r.bits},
                            {"method", r.method},
                            {"precision", r.precision},
                            {"distinct_train_codes", r.distinctCodes},
                            {"estimate_nats", r.estimate},
                            {"seconds", r.seconds}});
  const QString status = !result.error.isEmpty() ? "failed" : result.cancelled ? "cancelled" : "finished";
  const QJsonObject summary{{"experiment", experiment},
                            {"status", status},
                            {"reason", result.error},
                            {"device", result.device},
                            {"train_images", result.trainImages},
                            {"queries", result.queries},
                            {"rows", rows}};
  return saveAtomically(path, QJsonDocument(summary).toJson());
}

}  // namespace

int runHashingCommand(const HashingSpec& spec, const QString& outDir, const std::atomic<bool>& interrupted) {
  const QDir dir(outDir);
  QList<HashingRow> rows;
  QStringList errors;
  const int topK = spec.params.value("top_k").toInt();
  auto onRow = [&](const HashingRow& r) {
    rows << r;
    std::printf("m = %2d  %-4s  top-%d precision %.4f  (%d distinct training codes, %.1f s)\n", r.bits,
                r.method.toUtf8().constData(), topK, r.precision, r.distinctCodes, r.seconds);
    std::fflush(stdout);
    errors << writeCsv(dir.filePath("hashing.csv"), rows);  // kept if interrupted
  };
  const HashingResult result = runHashing(spec, onRow, interrupted);
  errors << writeCsv(dir.filePath("hashing.csv"), result.rows)
         << writeSummary(dir.filePath("summary.json"), spec, result);
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
