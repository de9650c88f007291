#include "results/history_connection.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QUrl>
#include <atomic>
#include <mutex>

#include "results/history_schema.h"

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

// The columns of `table` (none when it is not there).
QStringList columnsOf(const QSqlDatabase& db, const QString& table) {
  QStringList out;
  QSqlQuery q(db);
  if (q.exec(QStringLiteral("PRAGMA table_info(%1)").arg(table)))
    while (q.next()) out << q.value(1).toString();
  return out;
}

// "" when `db` has the tables and columns every version of milab's history has, else why it is not one.
QString notAHistory(const QSqlDatabase& db) {
  const QStringList runs = columnsOf(db, "runs"), curves = columnsOf(db, "curves");
  for (const char* c : {"id", "task", "method", "spec", "status", "estimate", "origin", "started"})
    if (!runs.contains(c)) return QStringLiteral("not a milab run history: no runs table with a %1 column").arg(c);
  for (const char* c : {"run_id", "points"})
    if (!curves.contains(c)) return QStringLiteral("not a milab run history: no curves table with a %1 column").arg(c);
  return {};
}

// How long a connection waits for another writer before the history counts as locked: 15 s, or
// $MILAB_HISTORY_WAIT_MS (an integer from 0 to 600000; the tests of a locked history set it short).
QString busyTimeout() {
  bool ok = false;
  const int ms = qEnvironmentVariableIntValue("MILAB_HISTORY_WAIT_MS", &ok);
  return QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(ok && ms >= 0 && ms <= 600000 ? ms : 15000);
}

}  // namespace

HistoryConnection::HistoryConnection(const QString& path, Schema schema)
    : name_(QStringLiteral("milab-history-%1").arg(connectionCount++)) {
  registerSqlCleanupOnce();
  const bool exists = QFileInfo::exists(path);
  if (schema == Schema::ReadOnly && !exists) {
    error_ = QStringLiteral("no run history there");
    return;
  }
  // A history deleted while the window is open is made again, empty, rather than read as a file with no table.
  if (!exists) schema = Schema::EnsureSchema;
  QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", name_);
  if (!db.isValid()) {
    error_ = "the QSQLITE driver is missing (Debian package libqt6sql6-sqlite)";
    return;
  }
  if (schema == Schema::EnsureSchema) QDir().mkpath(QFileInfo(path).absolutePath());
  if (schema != Schema::ReadOnly) {
    db.setDatabaseName(path);
    db.setConnectOptions(busyTimeout());  // wait for another writer instead of failing
  } else if (QFileInfo(QFileInfo(path).absolutePath()).isWritable()) {
    db.setDatabaseName(path);
    db.setConnectOptions(busyTimeout() + ";QSQLITE_OPEN_READONLY");
  } else {
    // A folder nobody here can write (a read-only mount): no writer can change the file, and SQLite can make none
    // of the WAL's side files, so the file is read as immutable.
    db.setDatabaseName(QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toString() + "?immutable=1");
    db.setConnectOptions("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI");
  }
  if (!db.open()) {
    error_ = sqlErrorWords(db.lastError());
    return;
  }
  QSqlQuery q(db);
  // A database of a newer version is refused before anything here could write to it (the journal mode too).
  if (error_ = historySchemaRefusal(db); !error_.isEmpty()) return;
  if (schema == Schema::ReadOnly) {
    error_ = notAHistory(db);
    hasSummary_ = columnsOf(db, "runs").contains("summary");
    hasCurveFormat_ = columnsOf(db, "curves").contains("format");
    return;
  }
  if (schema == Schema::UseSchema) {
    if (!q.exec("PRAGMA foreign_keys=ON")) error_ = sqlErrorWords(q.lastError());  // a delete takes the curve too
    return;
  }
  makeWritable(db);
}

void HistoryConnection::makeWritable(QSqlDatabase& db) {
  QSqlQuery q(db);
  // WAL: readers never block the writer, and a crash mid-write leaves the last committed state. Switching a new
  // file to WAL takes it whole: writers that create it together retry (a CI run saw one of four fail).
  for (int attempt = 0; !q.exec("PRAGMA journal_mode=WAL"); ++attempt) {
    if (attempt == 100) {
      error_ = sqlErrorWords(q.lastError());
      return;
    }
    QThread::msleep(20);
  }
  for (const char* sql : {"PRAGMA foreign_keys=ON", "PRAGMA synchronous=NORMAL"})
    if (!q.exec(sql)) error_ = sqlErrorWords(q.lastError());
  // The schema made or upgraded under the write lock, taken with the busy wait (in autocommit, reading the schema
  // first fails at once, SQLITE_BUSY_SNAPSHOT, when another writer changed it meanwhile): processes that create
  // or upgrade the same file take turns, and the later ones find it done (results/history_schema.h).
  if (error_.isEmpty() && !q.exec("BEGIN IMMEDIATE")) error_ = sqlErrorWords(q.lastError());
  if (error_.isEmpty()) error_ = ensureHistorySchema(db);
  if (error_.isEmpty() && !q.exec("COMMIT")) error_ = sqlErrorWords(q.lastError());
  if (!error_.isEmpty()) q.exec("ROLLBACK");
}

HistoryConnection::~HistoryConnection() {
  {
    QSqlDatabase db = QSqlDatabase::database(name_, false);
    db.close();
  }
  QSqlDatabase::removeDatabase(name_);
}

QString HistoryConnection::runColumns() const {
  return QStringLiteral(
             "id, task, method, spec, status, reason, estimate, stderr, target, true_value, ceilings, terms, seconds,"
             " steps_done, device, version, origin, started, ended, %1")
      .arg(hasSummary_ ? "summary" : "NULL");
}

}  // namespace milab
