#include "results/run_store.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QThread>
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <mutex>

#include "results/curve_blob.h"
#include "results/history_schema.h"
#include "results/run_files.h"

#ifndef MILAB_VERSION
#define MILAB_VERSION "unknown"
#endif

namespace milab {

namespace {

std::atomic<int> connectionCount{0};

// Qt 6.4's QtSql registers its exit-time cleanup the first time any thread needs its driver table, through a plain
// flag that the cleanup itself clears and re-checks: two threads that open their first connections at once may both
// register it, and then at exit each run registers the next, forever (a grid with --jobs 2 hung at 100% of a core
// after writing its table; `objdump -d libQt6Sql.so.6` shows the unguarded test-and-set). Its first use is made
// here, once, before any connection, whichever thread comes first (test_history_threads).
void registerSqlCleanupOnce() {
  static std::once_flag once;
  std::call_once(once, [] { QSqlDatabase::drivers(); });
}

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

const char* kColumns =
    "id, task, method, spec, status, reason, estimate, stderr, target, true_value, ceilings, terms, seconds,"
    " steps_done, device, version, origin, started, ended, summary";

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

// One connection of this thread to the database for one call, closed and removed when it goes out of scope.
// EnsureSchema makes sure of the folder, the WAL journal and the schema (the store's constructor and every record);
// UseSchema only opens what those made (reads, and deletes, whose curves go with their runs by foreign key).
class HistoryConnection {
 public:
  enum class Schema { UseSchema, EnsureSchema };
  HistoryConnection(const QString& path, Schema schema)
      : name_(QStringLiteral("milab-history-%1").arg(connectionCount++)) {
    registerSqlCleanupOnce();
    // A history deleted while the window is open is made again, empty, rather than read as a file with no table.
    if (!QFileInfo::exists(path)) schema = Schema::EnsureSchema;
    QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", name_);
    if (!db.isValid()) {
      error_ = "the QSQLITE driver is missing (Debian package libqt6sql6-sqlite)";
      return;
    }
    if (schema == Schema::EnsureSchema) QDir().mkpath(QFileInfo(path).absolutePath());
    db.setDatabaseName(path);
    db.setConnectOptions("QSQLITE_BUSY_TIMEOUT=15000");  // wait for another writer instead of failing
    if (!db.open()) {
      error_ = db.lastError().text();
      return;
    }
    QSqlQuery q(db);
    // A database of a newer version is refused before anything here could write to it (the journal mode too).
    if (error_ = historySchemaRefusal(db); !error_.isEmpty()) return;
    if (schema == Schema::UseSchema) {
      if (!q.exec("PRAGMA foreign_keys=ON")) error_ = q.lastError().text();  // a delete takes the curve too
      return;
    }
    // WAL: readers never block the writer, and a crash mid-write leaves the last committed state. Switching a new
    // file to WAL takes it whole: writers that create it together retry (a CI run saw one of four fail).
    for (int attempt = 0; !q.exec("PRAGMA journal_mode=WAL"); ++attempt) {
      if (attempt == 100) {
        error_ = q.lastError().text();
        return;
      }
      QThread::msleep(20);
    }
    for (const char* sql : {"PRAGMA foreign_keys=ON", "PRAGMA synchronous=NORMAL"})
      if (!q.exec(sql)) error_ = q.lastError().text();
    // The schema made or upgraded under the write lock, taken with the busy wait (in autocommit, reading the schema
    // first fails at once, SQLITE_BUSY_SNAPSHOT, when another writer changed it meanwhile): processes that create
    // or upgrade the same file take turns, and the later ones find it done (results/history_schema.h).
    if (error_.isEmpty() && !q.exec("BEGIN IMMEDIATE")) error_ = q.lastError().text();
    if (error_.isEmpty()) error_ = ensureHistorySchema(db);
    if (error_.isEmpty() && !q.exec("COMMIT")) error_ = q.lastError().text();
    if (!error_.isEmpty()) q.exec("ROLLBACK");
  }
  ~HistoryConnection() {
    {
      QSqlDatabase db = QSqlDatabase::database(name_, false);
      db.close();
    }
    QSqlDatabase::removeDatabase(name_);
  }
  QSqlDatabase db() const { return QSqlDatabase::database(name_, false); }
  const QString& error() const { return error_; }

 private:
  QString name_, error_;
};

namespace {

// One read on a connection of its own, run to its last row: "" or why it failed (the database cannot be opened, or
// a damaged page, which shows only when the read reaches it).
QString readRows(const QString& path, const QString& sql, const QVariantList& values,
                 const std::function<void(const QSqlQuery&)>& row) {
  const HistoryConnection c(path, HistoryConnection::Schema::UseSchema);
  if (!c.error().isEmpty()) return c.error();
  QSqlQuery q(c.db());
  q.prepare(sql);
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

RunStore::RunStore(const QString& dbPath) : path_(dbPath) {
  const HistoryConnection c(path_, HistoryConnection::Schema::EnsureSchema);
  if (!c.error().isEmpty()) error_ = describe(path_, c.error());
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
  QString sql = QStringLiteral("SELECT %1 FROM runs").arg(kColumns);
  if (!where.isEmpty()) sql += " WHERE " + where.join(" AND ");
  sql += " ORDER BY id DESC";
  if (filter.limit > 0) sql += QStringLiteral(" LIMIT %1").arg(filter.limit);
  const QString why = readRows(path_, sql, values, [&](const QSqlQuery& row) { out << storedRunOf(row); });
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return why.isEmpty() ? out : QList<StoredRun>();
}

std::optional<StoredRun> RunStore::find(qint64 id) const {
  std::optional<StoredRun> found;
  const QString why = readRows(path_, QStringLiteral("SELECT %1 FROM runs WHERE id = ?").arg(kColumns), {id},
                               [&](const QSqlQuery& row) { found = storedRunOf(row); });
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return found;
}

QVector<CurvePoint> RunStore::curve(qint64 id) const {
  QVector<CurvePoint> points;
  const QString why = readRows(
      path_, "SELECT points, format FROM curves WHERE run_id = ?", {id},
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
      path_, sql, {}, [&](const QSqlQuery& row) { stamp = row.value(0).toString() + ":" + row.value(1).toString(); });
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return why.isEmpty() ? stamp : QString();
}

QString RunStore::check() const {
  QStringList problems;
  QString why = readRows(path_, "PRAGMA quick_check", {}, [&](const QSqlQuery& row) {
    if (row.value(0).toString() != "ok") problems << row.value(0).toString();
  });
  if (why.isEmpty() && !problems.isEmpty()) why = QStringLiteral("damaged: %1").arg(problems.mid(0, 3).join("; "));
  error_ = why.isEmpty() ? QString() : describe(path_, why);
  return error_;
}

QString RunStore::remove(const QList<qint64>& ids) {
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
