#include "results/history_row.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <QUuid>
#include <cmath>

#include "results/curve_blob.h"
#include "results/history_schema.h"
#include "results/run_files.h"

#ifndef MILAB_VERSION
#define MILAB_VERSION "unknown"
#endif

namespace milab {

namespace {

// The runs table's columns a row fills, in the order they are bound (id is the database's).
const QStringList kColumns{"task",  "method", "spec",     "status",  "reason",  "estimate",   "stderr",
                           "target", "true_value", "ceilings", "terms", "seconds", "steps_done", "device",
                           "version", "origin", "started",  "ended",   "summary", "record_key"};

QString compact(const QJsonValue& v) {
  return QString::fromUtf8(v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                       : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
}

QJsonArray namedValues(const QList<NamedValue>& values) {
  QJsonArray a;
  for (const NamedValue& v : values) a << QJsonArray{v.name, v.value};
  return a;
}

QJsonValue number(double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null); }

}  // namespace

QString newRecordKey() { return QUuid::createUuid().toString(QUuid::WithoutBraces); }

HistoryRow historyRowOf(const RunSpec& spec, const RunResult& result, const QVector<CurvePoint>& curve,
                        const QString& origin, const QString& recordKey) {
  const QDateTime ended = QDateTime::currentDateTime();
  const QDateTime started = ended.addMSecs(-qint64(result.seconds * 1000));
  const bool estimated = hasEstimate(result);
  HistoryRow row;
  QJsonObject& c = row.columns;
  c["task"] = spec.task;
  c["method"] = spec.method;
  c["spec"] = compact(QJsonObject::fromVariantMap(runSpecToFlat(spec)));
  c["status"] = statusName(result.status);
  c["reason"] = result.reason;
  c["estimate"] = estimated ? number(result.estimate) : QJsonValue(QJsonValue::Null);
  c["stderr"] = estimated ? number(result.stderror) : QJsonValue(QJsonValue::Null);
  c["target"] = result.targetName;
  c["true_value"] = number(result.trueMi);  // a table's unknown truth: NULL, as SQLite stores NaN
  c["ceilings"] = compact(namedValues(result.ceilings));
  c["terms"] = compact(namedValues(result.terms));
  c["seconds"] = result.seconds;
  c["steps_done"] = result.stepsDone;
  c["device"] = result.device;
  c["version"] = QStringLiteral(MILAB_VERSION);
  c["origin"] = origin;
  c["started"] = started.toString(Qt::ISODateWithMs);
  c["ended"] = ended.toString(Qt::ISODateWithMs);
  c["summary"] = compact(summaryJson(spec, result));
  c["record_key"] = recordKey.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(recordKey);
  row.curve = packCurveBlob(curve);
  return row;
}

QString recordKeyOf(const HistoryRow& row) { return row.columns.value("record_key").toString(); }

QJsonObject historyRowJson(const HistoryRow& row) {
  return {{"columns", row.columns},
          {"curve", QString::fromLatin1(row.curve.toBase64())},
          {"curve_format", kCurveBlobFormat}};
}

QString historyRowOfJson(const QJsonObject& json, HistoryRow* row) {
  const QJsonObject columns = json.value("columns").toObject();
  for (const QString& name : {QStringLiteral("task"), QStringLiteral("method"), QStringLiteral("status")})
    if (!columns.value(name).isString()) return QStringLiteral("no '%1' column").arg(name);
  if (json.value("curve_format").toInt() != kCurveBlobFormat)
    return QStringLiteral("curve format %1, not %2").arg(json.value("curve_format").toInt()).arg(kCurveBlobFormat);
  const auto curve = QByteArray::fromBase64Encoding(json.value("curve").toString().toLatin1(),
                                                    QByteArray::AbortOnBase64DecodingErrors);
  if (!curve) return QStringLiteral("its curve is not base64");
  row->columns = columns;
  row->curve = *curve;
  return {};
}

QString insertHistoryRow(const QSqlDatabase& db, const HistoryRow& row, qint64* id) {
  QSqlQuery q(db);
  // Recorded before under this key: replaced, under the id it had (a run the window records again with its oracle's
  // reading keeps the id the History tab showed).
  QVariant keptId;
  if (const QString key = recordKeyOf(row); !key.isEmpty()) {
    q.prepare("SELECT id FROM runs WHERE record_key = ? ORDER BY id LIMIT 1");
    q.addBindValue(key);
    if (!q.exec()) return sqlErrorWords(q.lastError());
    if (q.next()) keptId = q.value(0);
    for (const char* sql : {"DELETE FROM curves WHERE run_id IN (SELECT id FROM runs WHERE record_key = ?)",
                            "DELETE FROM runs WHERE record_key = ?"}) {
      q.prepare(sql);
      q.addBindValue(key);
      if (!q.exec()) return sqlErrorWords(q.lastError());
    }
  }
  q.prepare(QStringLiteral("INSERT INTO runs(id, %1) VALUES(?, %2)")
                .arg(kColumns.join(", "), QStringList(kColumns.size(), QStringLiteral("?")).join(", ")));
  q.addBindValue(keptId.isValid() ? keptId : QVariant(QMetaType::fromType<qlonglong>()));  // NULL: a new id
  const QVariant none = QVariant(QMetaType::fromType<double>());  // SQL NULL
  for (const QString& name : kColumns) {
    const QJsonValue v = row.columns.value(name);
    q.addBindValue(v.isNull() || v.isUndefined() ? none : v.toVariant());
  }
  if (!q.exec()) return sqlErrorWords(q.lastError());
  const qint64 runId = keptId.isValid() ? keptId.toLongLong() : q.lastInsertId().toLongLong();
  QSqlQuery c(db);
  c.prepare("INSERT INTO curves(run_id, points, format) VALUES(?, ?, ?)");
  c.addBindValue(runId);
  c.addBindValue(row.curve);
  c.addBindValue(kCurveBlobFormat);
  if (!c.exec()) return sqlErrorWords(c.lastError());
  if (id) *id = runId;
  return {};
}

}  // namespace milab
