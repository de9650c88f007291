#pragma once
// Pending history rows (issue 80, "nothing lost"): a run whose row the history cannot take (locked past its wait,
// a full disk, a read-only file) keeps the row as a JSON file, and the next program that opens the history to write
// imports it. The row waits in the history's spool, the folder <history>.pending beside the file, and, for a run
// with a folder of results, also there as history-pending.json. A row enters the history under its record key
// (results/history_row.h), so importing it twice, or after the spool file outlived a crash, leaves it there once.
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include "results/history_row.h"

namespace milab {

inline const QString kPendingRowFile = QStringLiteral("history-pending.json");

// The spool folder of the history at `historyPath`.
QString pendingSpool(const QString& historyPath);

// Keeps `row`, bound for `historyPath`, in the spool and in `folder` when one is given ("" for none). Returns the
// files written (none when neither place can be written); `errors` gets why a place could not be.
QStringList keepPendingRow(const QString& historyPath, const HistoryRow& row, const QString& folder,
                           QStringList* errors);

// Inserts every spooled row into `db` (inside one write transaction the caller opened), each under its key, and
// returns the spool files that went in: the caller removes them (removeImported) once it has committed. A file that
// is not a pending row stays where it is and is named in `errors`.
QStringList importPendingRows(const QSqlDatabase& db, const QString& historyPath, QStringList* errors);
// After the commit: the imported spool files, and the copies beside the runs' results that hold the same key.
void removeImported(const QStringList& spoolFiles);

}  // namespace milab
