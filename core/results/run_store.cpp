#include "results/run_store.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <cmath>
#include <functional>
#include <limits>

#include "results/curve_blob.h"
#include "results/history_connection.h"
#include "results/history_schema.h"
#include "results/run_files.h"

#ifndef MILAB_VERSION
#define MILAB_VERSION "unknown"
#endif

namespace milab {

namespace {

QString describe(const QString& path, const QString& why) {
  return QStringLiteral("history: cannot use '%1' (%2)")
      .arg(path, why.isEmpty() ? QStringLiteral("unknown error") : why);
}

QString namedValuesJson(const QList<NamedValue>& values) {
  QJsonArray a;
  for (const NamedValue& v : values) a << QJsonArray{v.name, v.value};
  return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

QList<NamedValue> namedValuesOfJsonArray(const QString& json) {
  QList<NamedValue> out;
  for (const QJsonValue& v : QJsonDocument::fromJson(json.toUtf8()).array())
    out << NamedValue{v.toArray().at(0).toString(), v.toArray().at(1).toDouble()};
  return out;
}


StoredRun storedRunOf(const QSqlQuery& q) {
  StoredRun r;
  r.id = q.value(0).toLongLong();
  r.task = q.value(1).toString();
  r.method = q.value(2).toString();
  r.spec = QJsonDocument::fromJson(q.value(3).toString().toUtf8()).object();
  r.status = q.value(4).toString();
  r.reason = q.value(5).toString();
  if (!q.value(6).isNull()) r.estimate = q.value(6).toDouble();
  if (!q.value(7).isNull()) r.stderror = q.value(7).toDouble();
  r.targetName = q.value(8).toString();
  // NULL: a table's unknown truth (SQLite stores NaN as NULL), not a truth of 0
  r.trueValue = q.value(9).isNull() ? std::numeric_limits<double>::quiet_NaN() : q.value(9).toDouble();
  r.ceilings = namedValuesOfJsonArray(q.value(10).toString());
  r.terms = namedValuesOfJsonArray(q.value(11).toString());
  r.seconds = q.value(12).toDouble();
  r.stepsDone = q.value(13).toInt();
  r.device = q.value(14).toString();
  r.version = q.value(15).toString();
  r.origin = q.value(16).toString();
  r.started = QDateTime::fromString(q.value(17).toString(), Qt::ISODateWithMs);
  r.ended = QDateTime::fromString(q.value(18).toString(), Qt::ISODateWithMs);
  r.summary = QJsonDocument::fromJson(q.value(19).toString().toUtf8()).object();  // {} for a row of version 1
  return r;
}

}  // namespace

namespace {

// One read on a connection of its own, run to its last row: "" or why it failed (the database cannot be opened, or
// a damaged page, which shows only when the read reaches it).
// "{columns}" and "{curve_columns}" in `sql` stand for the runs' and the curves' columns as the file has them
// (HistoryConnection::runColumns, curveColumns).
QString readRows(const QString& path, HistoryConnection::Schema schema, const QString& sql, const QVariantList& values,
                 const std::function<void(const QSqlQuery&)>& row) {
  const HistoryConnection c(path, schema);
  if (!c.error().isEmpty()) return c.error();
  QSqlQuery q(c.db());
  q.prepare(QString(sql).replace("{columns}", c.runColumns()).replace("{curve_columns}", c.curveColumns()));
  for (const QVariant& v : values) q.addBindValue(v);
  if (!q.exec()) return q.lastError().text();
  while (q.next()) row(q);
  return q.lastError().isValid() ? q.lastError().text() : QString();
}

}  // namespace

QString defaultHistoryPath() {
  const QString env = qEnvironmentVariable("MILAB_DB");
  if (!env.isEmpty()) return env;
  QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  if (dir.isEmpty()) dir = QDir::homePath() + "/.local/share/milab";
  return dir + "/history.sqlite";
}

QString recordRun(const QString& dbPath, const RunSpec& spec, const RunResult& result, const QVector<CurvePoint>& curve,
                  const QString& origin, qint64* id) {
  const QDateTime ended = QDateTime::currentDateTime();
  const QDateTime started = ended.addMSecs(-qint64(result.seconds * 1000));
  HistoryConnection c(dbPath, HistoryConnection::Schema::EnsureSchema);
  if (!c.error().isEmpty()) return describe(dbPath, c.error());
  QSqlDatabase db = c.db();
  QSqlQuery q(db);
  // The write lock first, with the busy wait (a deferred transaction could fail at once on a stale snapshot).
  if (!q.exec("BEGIN IMMEDIATE")) return describe(dbPath, q.lastError().text());
  q.prepare(
      "INSERT INTO runs(task, method, spec, status, reason, estimate, stderr, target, true_value, ceilings, terms,"
      " seconds, steps_done, device, version, origin, started, ended, summary) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
      " ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const bool estimated = hasEstimate(result);
  const QVariant none = QVariant(QMetaType::fromType<double>());  // SQL NULL
  for (const QVariant& v :
       QVariantList{spec.task, spec.method,
                    QString::fromUtf8(
                        QJsonDocument(QJsonObject::fromVariantMap(runSpecToFlat(spec))).toJson(QJsonDocument::Compact)),
                    statusName(result.status), result.reason, estimated ? QVariant(result.estimate) : none,
                    estimated ? QVariant(result.stderror) : none, result.targetName, result.trueMi,
                    namedValuesJson(result.ceilings), namedValuesJson(result.terms), result.seconds, result.stepsDone,
                    result.device, QStringLiteral(MILAB_VERSION), origin, started.toString(Qt::ISODateWithMs),
                    ended.toString(Qt::ISODateWithMs),
                    QString::fromUtf8(QJsonDocument(summaryJson(spec, result)).toJson(QJsonDocument::Compact))})
    q.addBindValue(v);
  bool ok = q.exec();
  QString why = ok ? QString() : q.lastError().text();  // the failed statement's words
  const qint64 runId = q.lastInsertId().toLongLong();
  if (ok) {
    QSqlQuery c2(db);
    c2.prepare("INSERT INTO curves(run_id, points, format) VALUES(?, ?, ?)");
    c2.addBindValue(runId);
    c2.addBindValue(packCurveBlob(curve));
    c2.addBindValue(kCurveBlobFormat);
    ok = c2.exec();
    if (!ok) why = c2.lastError().text();
  }
  if (!ok) {
    db.rollback();
    return describe(dbPath, why);
  }
  if (!db.commit()) return describe(dbPath, db.lastError().text());
  if (id) *id = runId;
  return {};
}

RunStore::RunStore(const QString& dbPath, Access access) : path_(dbPath), access_(access) {
  const HistoryConnection c(path_, access_ == Access::ReadOnly ? HistoryConnection::Schema::ReadOnly
                                                               : HistoryConnection::Schema::EnsureSchema);
  if (!c.error().isEmpty()) error_ = describe(path_, c.error());
}

HistoryConnection::Schema RunStore::readSchema() const {
  return access_ == Access::ReadOnly ? HistoryConnection::Schema::ReadOnly : HistoryConnection::Schema::UseSchema;
}

RunStore::~RunStore() = default;

QList<StoredRun> RunStore::list(const HistoryFilter& filter) const {
  QList<StoredRun> out;
  QStringList where;
  QVariantList values;
  for (const auto& [column, value] :
       {std::pair<QString, QString>{"task", filter.task}, {"method", filter.method}, {"status", filter.status}})
    if (!value.isEmpty()) {
      where << column + " = ?";
      values << value;
    }
  if (!filter.text.isEmpty()) {
    where << "(spec LIKE ? OR reason LIKE ? OR origin LIKE ?)";
    for (int i = 0; i < 3; ++i) values << "%" + filter.text + "%";
  }
  QString sql = QStringLiteral("SELECT {columns} FROM runs");
  if (!where.isEmpty()) sql += " WHERE " + where.join(" AND ");
  sql += " ORDER BY id DESC";
  if (filter.limit > 0) sql += QStringLiteral(" LIMIT %1").arg(filter.limit);
  const QString why = readRows(path_, readSchema(), sql, values, [&](const QSqlQuery& row) { out << storedRunOf(row); });
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return why.isEmpty() ? out : QList<StoredRun>();
}

std::optional<StoredRun> RunStore::find(qint64 id) const {
  std::optional<StoredRun> found;
  const QString why = readRows(path_, readSchema(), "SELECT {columns} FROM runs WHERE id = ?", {id},
                               [&](const QSqlQuery& row) { found = storedRunOf(row); });
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return found;
}

QVector<CurvePoint> RunStore::curve(qint64 id) const {
  QVector<CurvePoint> points;
  const QString why = readRows(
      path_, readSchema(), "SELECT {curve_columns} FROM curves WHERE run_id = ?", {id},
      [&](const QSqlQuery& row) { points = unpackCurveBlob(row.value(0).toByteArray(), row.value(1).toInt()); });
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return points;
}

QString RunStore::changeStamp() const {
  QString stamp;
  // Two subqueries: together, count(*) and max(id) are both read off the smallest index; max(id) alone walks the
  // table's own b-tree from its root, so a damaged table shows at the next poll.
  const char* sql = "SELECT (SELECT count(*) FROM runs), (SELECT coalesce(max(id), 0) FROM runs)";
  const QString why = readRows(
      path_, readSchema(), sql, {}, [&](const QSqlQuery& row) { stamp = row.value(0).toString() + ":" + row.value(1).toString(); });
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return why.isEmpty() ? stamp : QString();
}

QString RunStore::check() const {
  QStringList problems;
  QString why = readRows(path_, readSchema(), "PRAGMA quick_check", {}, [&](const QSqlQuery& row) {
    if (row.value(0).toString() != "ok") problems << row.value(0).toString();
  });
  if (why.isEmpty() && !problems.isEmpty()) why = QStringLiteral("damaged: %1").arg(problems.mid(0, 3).join("; "));
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return error_;
}

QString RunStore::remove(const QList<qint64>& ids) {
  if (access_ == Access::ReadOnly) return error_ = describe(path_, "opened to read only");
  const HistoryConnection c(path_, HistoryConnection::Schema::UseSchema);
  QString why = c.error();
  QSqlDatabase db = c.db();
  QSqlQuery q(db);
  // The write lock first, with the busy wait (a deferred transaction could fail at once on a stale snapshot).
  if (why.isEmpty() && !q.exec("BEGIN IMMEDIATE")) why = q.lastError().text();
  for (qint64 id : ids) {
    if (!why.isEmpty()) break;
    q.prepare("DELETE FROM runs WHERE id = ?");  // its curve goes with it (ON DELETE CASCADE)
    q.addBindValue(id);
    if (!q.exec()) {
      why = q.lastError().text();
      db.rollback();
    }
  }
  if (why.isEmpty() && !db.commit()) why = db.lastError().text();
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return error_;
}

QJsonObject storedRunJson(const StoredRun& run) {
  // A row of version 2 holds its whole summary.json: printed as it is, with what only the history knows added.
  if (!run.summary.isEmpty()) {
    QJsonObject o = run.summary;
    o.insert("id", run.id);
    o.insert("version", run.version);
    o.insert("origin", run.origin);
    o.insert("started", run.started.toString(Qt::ISODateWithMs));
    o.insert("ended", run.ended.toString(Qt::ISODateWithMs));
    return o;
  }
  QJsonObject o;
  o.insert("id", run.id);
  o.insert("task", run.task);
  o.insert("method", run.method);
  o.insert("status", run.status);
  if (!run.reason.isEmpty()) o.insert("reason", run.reason);
  o.insert("estimate", run.estimate ? QJsonValue(*run.estimate) : QJsonValue(QJsonValue::Null));
  o.insert("stderr", run.stderror ? QJsonValue(*run.stderror) : QJsonValue(QJsonValue::Null));
  o.insert("target", run.targetName);
  o.insert("true_mi", std::isnan(run.trueValue) ? QJsonValue(QJsonValue::Null) : QJsonValue(run.trueValue));
  QJsonObject ceilings, terms;
  for (const Ceiling& c : run.ceilings) ceilings.insert(c.name, c.value);
  for (const Term& t : run.terms) terms.insert(t.name, t.value);
  o.insert("ceilings", ceilings);
  o.insert("terms", terms);
  o.insert("seconds", run.seconds);
  o.insert("steps_done", run.stepsDone);
  o.insert("device", run.device);
  o.insert("version", run.version);
  o.insert("origin", run.origin);
  o.insert("started", run.started.toString(Qt::ISODateWithMs));
  o.insert("ended", run.ended.toString(Qt::ISODateWithMs));
  o.insert("experiment", run.spec);
  return o;
}

}  // namespace milab
