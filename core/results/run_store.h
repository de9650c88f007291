#pragma once
// The run history: every run that ends (in the window, the runner or a grid cell) as one row of an SQLite
// database (Qt Sql's QSQLITE driver), with its curve. Folders of files stay the exchange format; the database is
// the index and the history.
//
// Where: $MILAB_DB, else the user's data folder (QStandardPaths::AppDataLocation)/history.sqlite; `--db PATH`
// overrides both. WAL journal and a busy timeout, so grid jobs and two processes write at once; one transaction
// per run, written when it ends, so a process killed at any moment leaves no partial row. Each call opens its own
// connection (a connection belongs to one thread): recordRun can run on a run's worker thread.
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVector>
#include <memory>
#include <optional>

#include "engine/run.h"

namespace milab {

class HistoryConnection;  // one thread's connection to the database (run_store.cpp)

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
};

struct HistoryFilter {
  QString task, method, status, text;  // empty: any; text matches the spec or the reason
  int limit = 0;                       // 0: all, newest first
};

// Records one ended run and its curve in one transaction, ended now (started its `seconds` before). `origin` says
// where it ran ("window", "cli DIR", "grid DIR"). Returns "" or one line saying why the history could not be
// written (the run's files never depend on it).
QString recordRun(const QString& dbPath, const RunSpec& spec, const RunResult& result, const QVector<CurvePoint>& curve,
                  const QString& origin, qint64* id = nullptr);

// Reads the history. Opens (and creates) the database at construction; error() says why it cannot be used.
class RunStore {
 public:
  explicit RunStore(const QString& dbPath);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  const QString& path() const { return path_; }
  QString error() const { return error_; }
  QList<StoredRun> list(const HistoryFilter& filter = {}) const;
  std::optional<StoredRun> find(qint64 id) const;
  QVector<CurvePoint> curve(qint64 id) const;
  QString remove(const QList<qint64>& ids);  // "" or the error
  // The spec as the engine takes it (validated by the caller).
  static QVariantMap specOf(const StoredRun& run) { return run.spec.toVariantMap(); }

 private:
  QString path_, error_;
  std::unique_ptr<HistoryConnection> connection_;
};

// One stored run as the JSON `milab-cli show ID` prints (the summary.json fields, plus id, origin, times).
QJsonObject storedRunJson(const StoredRun& run);

}  // namespace milab
