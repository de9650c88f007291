// The run history's schema and its migrations (see history_schema.h).
#include "results/history_schema.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>
#include <cstddef>

namespace milab {

QString sqlErrorWords(const QSqlError& error) {
  const QString database = error.databaseText().trimmed();
  return database.isEmpty() ? error.text() : database;
}

namespace {

// Version 3 written out whole, for a new database.
const char* const kCreate[] = {
    "CREATE TABLE runs(id INTEGER PRIMARY KEY AUTOINCREMENT, task TEXT NOT NULL, method TEXT NOT NULL,"
    " spec TEXT NOT NULL, status TEXT NOT NULL, reason TEXT, estimate REAL, stderr REAL, target TEXT,"
    " true_value REAL, ceilings TEXT, terms TEXT, seconds REAL, steps_done INTEGER, device TEXT, version TEXT,"
    " origin TEXT, started TEXT, ended TEXT, summary TEXT, record_key TEXT)",
    "CREATE TABLE curves(run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE, points BLOB,"
    " format INTEGER NOT NULL DEFAULT 1)",
    "CREATE INDEX runs_task_method ON runs(task, method)",
    "CREATE UNIQUE INDEX runs_record_key ON runs(record_key)",
};

// Version 1 -> 2: columns added, no row rewritten (SQLite adds a column without touching the rows).
const char* const kFrom1To2[] = {
    "ALTER TABLE runs ADD COLUMN summary TEXT",
    "ALTER TABLE curves ADD COLUMN format INTEGER NOT NULL DEFAULT 1",
};

// Version 2 -> 3: each row's record key (results/history_row.h), NULL for the rows written before; unique where set.
const char* const kFrom2To3[] = {
    "ALTER TABLE runs ADD COLUMN record_key TEXT",
    "CREATE UNIQUE INDEX runs_record_key ON runs(record_key)",
};

int userVersion(const QSqlDatabase& db, QString* error) {
  QSqlQuery q(db);
  if (!q.exec("PRAGMA user_version") || !q.next()) {
    *error = sqlErrorWords(q.lastError());
    return -1;
  }
  return q.value(0).toInt();
}

template <size_t N>
QString execAll(const QSqlDatabase& db, const char* const (&statements)[N]) {
  QSqlQuery q(db);
  for (const char* sql : statements)
    if (!q.exec(sql)) return sqlErrorWords(q.lastError());
  return {};
}

// "" when a database of `version` can be read here, else why not (both versions named).
QString refusalOf(int version) {
  if (version <= kHistorySchemaVersion) return {};
  return QStringLiteral(
             "its schema is version %1, written by a newer milab; this one reads versions up to %2 and "
             "leaves the file as it is")
      .arg(version)
      .arg(kHistorySchemaVersion);
}

}  // namespace

QString historySchemaRefusal(const QSqlDatabase& db) {
  QString error;
  const int version = userVersion(db, &error);
  return version < 0 ? error : refusalOf(version);
}

QString ensureHistorySchema(const QSqlDatabase& db) {
  QString error;
  const int version = userVersion(db, &error);  // read again under the write lock: another process may have moved it
  if (version < 0) return error;
  if (QString refusal = refusalOf(version); !refusal.isEmpty()) return refusal;
  if (version == kHistorySchemaVersion) return {};
  QSqlQuery q(db);
  if (!q.exec("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'runs'") || !q.next())
    return sqlErrorWords(q.lastError());
  const bool hasRuns = q.value(0).toInt() > 0;  // user_version 0 with tables: version 1; without: a new file
  if (!hasRuns) {
    if (QString e = execAll(db, kCreate); !e.isEmpty()) return e;
  } else {
    if (version < 2)
      if (QString e = execAll(db, kFrom1To2); !e.isEmpty()) return e;
    if (QString e = execAll(db, kFrom2To3); !e.isEmpty()) return e;
  }
  if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(kHistorySchemaVersion))) return sqlErrorWords(q.lastError());
  return {};
}

}  // namespace milab
