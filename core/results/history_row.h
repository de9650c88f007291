#pragma once
// One run as the history stores it, apart from any database: what recordRun inserts, and what a pending record
// (results/pending_rows.h) keeps, as JSON, until the history can take it. Its record key makes an insert
// idempotent: a row inserted under a key that the history already holds replaces that row, so a pending record
// imported twice, or a resumed grid's cell whose first attempt was recorded before a kill, stays one row.
#include <QByteArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QString>
#include <QVector>

#include "engine/run.h"

namespace milab {

// Where a run's row belongs: its record key ("" for a new one) and the folder of its results ("" for none), beside
// which a row the history cannot take is kept (results/pending_rows.h).
struct RecordPlace {
  QString key, folder;
};

struct HistoryRow {
  QJsonObject columns;  // the runs table's columns by name (results/history_schema.cpp), null for SQL NULL
  QByteArray curve;     // the curve's blob (results/curve_blob.h, format kCurveBlobFormat)
};

// The row of a run that ended now (started its `seconds` before), recorded under `recordKey` ("" for none).
HistoryRow historyRowOf(const RunSpec& spec, const RunResult& result, const QVector<CurvePoint>& curve,
                        const QString& origin, const QString& recordKey);
QString recordKeyOf(const HistoryRow& row);
// A new record key, unique to this run (a run with no folder, or a new run in a folder).
QString newRecordKey();

// The row as JSON and back (a pending record's body); fromJson says "" or why the object is not a row.
QJsonObject historyRowJson(const HistoryRow& row);
QString historyRowOfJson(const QJsonObject& json, HistoryRow* row);

// Inserts the row and its curve, replacing any row of the same record key. Call inside a write transaction.
// "" or the failed statement's error; `id` gets the new row's id.
QString insertHistoryRow(const QSqlDatabase& db, const HistoryRow& row, qint64* id = nullptr);

}  // namespace milab
