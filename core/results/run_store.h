#pragma once
// The run history: every run that ends (in the window, the runner or a grid cell) as one row of an SQLite
// database (Qt Sql's QSQLITE driver), with its curve. Folders of files stay the exchange format; the database is
// the index and the history.
//
// Where: $MILAB_DB, else the user's data folder (QStandardPaths::AppDataLocation)/history.sqlite; `--db PATH`
// overrides both. WAL journal and a busy timeout, so grid jobs and two processes write at once; one transaction
// per run, written when it ends, so a process killed at any moment leaves no partial row.
//
// No connection outlives the call that opened it (a connection belongs to one thread, and recordRun runs on a
// run's worker). That is also what keeps the file whole beside other code of the same process: SQLite guards the
// file with POSIX locks, which belong to the process, and any close() of any descriptor of the file drops them all
// (a file dialog that reads the file to guess its type does this). A connection held open for the window's life
// then believed it held a lock it had lost; another process ending its last connection checkpointed and deleted
// the -wal and -shm under it, and the window's next write corrupted the database (issue 44). A connection that
// lives for one call can lose its lock only inside that call.
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVector>
#include <optional>

#include "engine/run.h"
#include "results/history_connection.h"
#include "results/history_row.h"

namespace milab {

QString defaultHistoryPath();  // $MILAB_DB, else <AppDataLocation>/history.sqlite

struct StoredRun {
  qint64 id = 0;
  QString task, method, status, reason, targetName, device, version, origin;
  QJsonObject spec;                          // the experiment, flat (runSpecToFlat)
  std::optional<double> estimate, stderror;  // none for a failed run
  double trueValue = 0;
  QList<Ceiling> ceilings;
  QList<Term> terms;
  double seconds = 0;
  int stepsDone = 0;
  QDateTime started, ended;
  // Everything summary.json holds (results/run_files.h: the permutation baseline, the warning, readings, levels);
  // {} for a run recorded before the history kept it (schema version 1, results/history_schema.h).
  QJsonObject summary;
  // What of the row could not be read ("spec is not a JSON object", "estimate 'abc' is not a number"): a row another
  // program wrote or a damaged file. Empty for every row milab wrote.
  QStringList damaged;
};

struct HistoryFilter {
  QString task, method, status, text;  // empty: any; text matches the spec or the reason
  int limit = 0;                       // 0: all, newest first
};

// Records one ended run and its curve in one transaction, ended now (started its `seconds` before), with any pending
// rows the history's spool holds (results/pending_rows.h). `origin` says where it ran ("window", "cli DIR",
// "grid DIR"). Returns "" or one line: why the history could not be written and where the row waits meanwhile (the
// run's files never depend on it).
QString recordRun(const QString& dbPath, const RunSpec& spec, const RunResult& result, const QVector<CurvePoint>& curve,
                  const QString& origin, qint64* id = nullptr, const RecordPlace& place = {});
// Takes the spool's pending rows into the history (the window's start, a grid's): "" or why not.
QString importPendingRuns(const QString& dbPath);

// Reads the history. The constructor creates the database when it is missing; every call opens a connection of its
// own and closes it (see above). error() says why the last call failed: "" once the database can be used again.
class RunStore {
 public:
  // ReadWrite creates the database when it is missing and upgrades an older one; ReadOnly (milab-cli's history and
  // show) changes nothing, reads a version-1 file as it is, and refuses a file that is not a milab history.
  enum class Access { ReadWrite, ReadOnly };
  explicit RunStore(const QString& dbPath, Access access = Access::ReadWrite);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  const QString& path() const { return path_; }
  QString error() const { return error_; }
  QList<StoredRun> list(const HistoryFilter& filter = {}) const;
  std::optional<StoredRun> find(qint64 id) const;
  QVector<CurvePoint> curve(qint64 id) const;
  QString remove(const QList<qint64>& ids);  // "" or the error
  // What any record or delete changes, from this process or another: the number of runs and the newest id.
  // Cheap enough to poll; empty when the database cannot be read (error() says why).
  QString changeStamp() const;
  // SQLite's quick_check over the whole file: "" when it is whole, else why not (a damaged page, not a database).
  QString check() const;
  // The spec as the engine takes it (validated by the caller).
  static QVariantMap specOf(const StoredRun& run) { return run.spec.toVariantMap(); }

 private:
  HistoryConnection::Schema readSchema() const;

  QString path_;
  Access access_;
  mutable QString error_;
};

// One stored run as the JSON `milab-cli show ID` prints (the summary.json fields, plus id, origin, times).
QJsonObject storedRunJson(const StoredRun& run);

}  // namespace milab
