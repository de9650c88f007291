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
#include "results/history_row.h"
#include "results/history_schema.h"
#include "results/pending_rows.h"
#include "results/run_files.h"

namespace milab {

namespace {

QString describe(const QString& path, const QString& why) {
  return QStringLiteral("history: cannot use '%1' (%2)")
      .arg(path, why.isEmpty() ? QStringLiteral("unknown error") : why);
}

QList<NamedValue> namedValuesOfJsonArray(const QString& json) {
  QList<NamedValue> out;
  for (const QJsonValue& v : QJsonDocument::fromJson(json.toUtf8()).array())
    out << NamedValue{v.toArray().at(0).toString(), v.toArray().at(1).toDouble()};
  return out;
}


// A number column read as a number, or nothing with the reason in `damaged` (a text 'abc' read 0 before).
std::optional<double> numberIn(const QVariant& v, const char* column, QStringList* damaged) {
  if (v.isNull()) return std::nullopt;
  bool ok = false;
  const double d = v.toDouble(&ok);
  if (ok) return d;
  *damaged << QStringLiteral("%1 '%2' is not a number").arg(column, v.toString().left(40));
  return std::nullopt;
}

StoredRun storedRunOf(const QSqlQuery& q) {
  StoredRun r;
  r.id = q.value(0).toLongLong();
  r.task = q.value(1).toString();
  r.method = q.value(2).toString();
  const QJsonDocument spec = QJsonDocument::fromJson(q.value(3).toString().toUtf8());
  if (!spec.isObject()) r.damaged << QStringLiteral("its spec is not a JSON object");
  r.spec = spec.object();
  r.status = q.value(4).toString();
  if (!QStringList{"finished", "cancelled", "failed"}.contains(r.status))
    r.damaged << QStringLiteral("status '%1' is none of finished|cancelled|failed").arg(r.status.left(40));
  r.reason = q.value(5).toString();
  r.estimate = numberIn(q.value(6), "estimate", &r.damaged);
  r.stderror = numberIn(q.value(7), "stderr", &r.damaged);
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
  if (!q.value(19).isNull() && !QJsonDocument::fromJson(q.value(19).toString().toUtf8()).isObject())
    r.damaged << QStringLiteral("its summary is not a JSON object");
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
  if (!q.exec()) return sqlErrorWords(q.lastError());
  while (q.next()) row(q);
  return q.lastError().isValid() ? sqlErrorWords(q.lastError()) : QString();
}

}  // namespace

QString defaultHistoryPath() {
  const QString env = qEnvironmentVariable("MILAB_DB");
  if (!env.isEmpty()) return env;
  QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  if (dir.isEmpty()) dir = QDir::homePath() + "/.local/share/milab";
  return dir + "/history.sqlite";
}

namespace {

// Imports the spool's pending rows (results/pending_rows.h) and inserts `row` when given, in one transaction on an
// open writable connection: "" or why not. Import problems that leave a file behind go to `warnings`.
QString writeRows(const QSqlDatabase& db, const HistoryRow* row, const QString& dbPath, qint64* id,
                  QStringList* warnings) {
  QSqlQuery q(db);
  // The write lock first, with the busy wait (a deferred transaction could fail at once on a stale snapshot).
  if (!q.exec("BEGIN IMMEDIATE")) return sqlErrorWords(q.lastError());
  const QStringList imported = importPendingRows(db, dbPath, warnings);
  QString why = row ? insertHistoryRow(db, *row, id) : QString();
  if (why.isEmpty() && !QSqlDatabase(db).commit()) why = sqlErrorWords(db.lastError());
  if (!why.isEmpty()) {
    QSqlDatabase(db).rollback();
    return why;
  }
  removeImported(imported);
  return {};
}

}  // namespace

QString recordRun(const QString& dbPath, const RunSpec& spec, const RunResult& result, const QVector<CurvePoint>& curve,
                  const QString& origin, qint64* id, const RecordPlace& place) {
  const HistoryRow row =
      historyRowOf(spec, result, curve, origin, place.key.isEmpty() ? newRecordKey() : place.key);
  QString why;
  QStringList warnings;
  {
    const HistoryConnection c(dbPath, HistoryConnection::Schema::EnsureSchema);
    why = c.error().isEmpty() ? writeRows(c.db(), &row, dbPath, id, &warnings) : c.error();
  }
  if (why.isEmpty()) return warnings.join("; ");
  // Nothing lost: the row waits as a pending record, and the next program that opens the history takes it in.
  QStringList errors;
  const QStringList kept = keepPendingRow(dbPath, row, place.folder, &errors);
  if (kept.isEmpty())
    return describe(dbPath, why) + QStringLiteral("; the run's row is lost: ") + errors.join("; ");
  const QString spool = pendingSpool(dbPath);
  if (!kept.first().startsWith(spool + '/'))  // beside the results only: the spool is where the history looks
    return describe(dbPath, why) +
           QStringLiteral("; the run's row is kept in %1, and enters the history once that file is copied into %2 "
                          "(%3)")
               .arg(kept.first(), spool, errors.join("; "));
  return describe(dbPath, why) +
         QStringLiteral("; the run's row is kept in %1 and enters the history when a program next writes to it")
             .arg(kept.join(" and "));
}

QString importPendingRuns(const QString& dbPath) {
  if (!QFileInfo::exists(pendingSpool(dbPath))) return {};
  const HistoryConnection c(dbPath, HistoryConnection::Schema::EnsureSchema);
  if (!c.error().isEmpty()) return describe(dbPath, c.error());
  QStringList warnings;
  if (const QString why = writeRows(c.db(), nullptr, dbPath, nullptr, &warnings); !why.isEmpty())
    return describe(dbPath, why);
  return warnings.join("; ");
}

RunStore::RunStore(const QString& dbPath, Access access) : path_(dbPath), access_(access) {
  const HistoryConnection c(path_, access_ == Access::ReadOnly ? HistoryConnection::Schema::ReadOnly
                                                               : HistoryConnection::Schema::EnsureSchema);
  if (!c.error().isEmpty()) error_ = describe(path_, c.error());
  // The window's store: the first to open the history to write takes in the rows that waited (pending_rows.h).
  if (error_.isEmpty() && access_ == Access::ReadWrite) importPendingRuns(path_);
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
  if (why.isEmpty() && !q.exec("BEGIN IMMEDIATE")) why = sqlErrorWords(q.lastError());
  for (qint64 id : ids) {
    if (!why.isEmpty()) break;
    q.prepare("DELETE FROM runs WHERE id = ?");  // its curve goes with it (ON DELETE CASCADE)
    q.addBindValue(id);
    if (!q.exec()) {
      why = sqlErrorWords(q.lastError());
      db.rollback();
    }
  }
  if (why.isEmpty() && !db.commit()) why = sqlErrorWords(db.lastError());
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
