#include "results/hashing_files.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include "engine/run.h"
#include "results/run_files.h"

namespace milab {

QString writeHashingCsv(const QString& path, const QList<HashingRow>& rows) {
  QByteArray bytes;
  QTextStream out(&bytes);
  out << "bits,method,precision,distinct_train_codes,bit_entropy_bits,estimate_nats,seconds\n";
  for (const HashingRow& r : rows)
    out << r.bits << ',' << r.method << ',' << QString::number(r.precision, 'g', 10) << ',' << r.distinctCodes << ','
        << QString::number(r.bitEntropy, 'g', 10) << ','
        << (r.estimate ? QString::number(*r.estimate, 'g', 10) : QString()) << ',' << QString::number(r.seconds, 'g', 6)
        << '\n';
  out.flush();
  return saveAtomically(path, bytes);
}

QString writeHashingSummary(const QString& path, const HashingSpec& spec, const HashingResult& result) {
  QJsonObject experiment = QJsonObject::fromVariantMap(spec.params);
  QJsonArray bits, rows;
  for (int m : spec.bits) bits.append(m);
  experiment.insert("bits", bits);
  for (const HashingRow& r : result.rows)
    rows.append(QJsonObject{{"bits", r.bits},
                            {"method", r.method},
                            {"precision", r.precision},
                            {"distinct_train_codes", r.distinctCodes},
                            {"bit_entropy_bits", r.bitEntropy},
                            {"estimate_nats", r.estimate ? QJsonValue(*r.estimate) : QJsonValue(QJsonValue::Null)},
                            {"seconds", r.seconds}});
  const QJsonObject summary{{"experiment", experiment},
                            {"status", statusName(outcomeOf(result.error, result.cancelled))},
                            {"reason", result.error},
                            {"device", result.device},
                            {"train_images", result.trainImages},
                            {"queries", result.queries},
                            {"chance_precision", result.chancePrecision},
                            {"rows", rows}};
  return saveAtomically(path, QJsonDocument(summary).toJson());
}

}  // namespace milab
