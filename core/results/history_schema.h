#pragma once
// The run history's schema, versioned with SQLite's user_version, and its migrations. Version 1 (user_version 0,
// the lab before 2026-11-26): runs without the summary, curves of four columns. Version 2: each run's whole
// summary.json in runs.summary (the permutation baseline, held-out and probe readings, a staircase's levels, the
// warning) and every curve column (curves.format 2, results/curve_blob.h). Version 3: each row's record key
// (runs.record_key, results/history_row.h), so that a run recorded again (a pending row imported twice, a resumed
// grid's cell) replaces its row rather than adding one. A database is upgraded in place, inside
// the write lock, the first time a program of this version opens it to write; rows written before keep every
// value they had (their summary null, their curves format 1). A database of a newer version is never written.
#include <QSqlDatabase>
#include <QSqlError>
#include <QString>

namespace milab {

// SQLite's own words for `error` ("database is locked"), without Qt's driver text ("Unable to fetch row") that
// QSqlError::text() appends, which names no cause a user could act on; Qt's text when SQLite gave none.
QString sqlErrorWords(const QSqlError& error);

constexpr int kHistorySchemaVersion = 3;

// "" when this program can read `db` (its version is at most ours), else one line naming both versions. Reads only.
QString historySchemaRefusal(const QSqlDatabase& db);
// Creates the tables of a new database or upgrades an older one to kHistorySchemaVersion. Call inside BEGIN
// IMMEDIATE (two processes upgrading at once then take turns, and the second finds nothing to do). "" or the error.
QString ensureHistorySchema(const QSqlDatabase& db);

}  // namespace milab
