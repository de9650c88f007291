// Nothing lost (issue 80, item 3; results/pending_rows.h): a run whose history row cannot be written, because another
// writer holds the history past the wait or no history can be made there, keeps the row beside its results and in
// the history's spool; the next program that writes to the history takes it in, once, even when the spool file
// outlives the import; a read-only reader leaves it waiting; and a run into a folder whose last run was recorded but
// never completed (a grid cell killed before its summary's rename, then resumed) replaces that row, not adds one.
#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include "results/pending_rows.h"
#include "results/run_files.h"
#include "results/run_store.h"

using namespace milab;

namespace {

RunSpec ksgSpec() {
  RunSpec spec;
  spec.task = "gaussian2";
  spec.method = "ksg";
  return spec;
}

RunResult finished(double estimate) {
  RunResult r;
  r.status = RunStatus::Finished;
  r.estimate = estimate;
  r.stepsDone = 3;
  return r;
}

QVector<CurvePoint> threePoints() { return {{1, 0.5, -0.5, 0.1}, {2, 0.75, -0.75, 0.2}, {3, 1.25, -1.25, 0.3}}; }

// Another writer of the history: holds its write lock from construction to destruction.
class WriteLock {
 public:
  explicit WriteLock(const QString& path) {
    QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "lock");
    db.setDatabaseName(path);
    if (!db.open() || !QSqlQuery(db).exec("BEGIN EXCLUSIVE")) qFatal("cannot lock %s", qPrintable(path));
  }
  ~WriteLock() {
    {
      QSqlDatabase db = QSqlDatabase::database("lock");
      QSqlQuery(db).exec("ROLLBACK");
      db.close();
    }
    QSqlDatabase::removeDatabase("lock");
  }
};

QList<StoredRun> rows(const QString& history) { return RunStore(history, RunStore::Access::ReadOnly).list(); }

QStringList spooled(const QString& history) {
  return QDir(pendingSpool(history)).entryList({"*.json"}, QDir::Files);
}

}  // namespace

class TestPendingRows : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { qputenv("MILAB_HISTORY_WAIT_MS", "200"); }  // a locked history is a short wait here

  void aLockedHistoryKeepsTheRowAndTheNextWriterTakesItInOnce() {
    QTemporaryDir tmp;
    const QString history = tmp.filePath("history.sqlite"), folder = tmp.filePath("run");
    QVERIFY(QDir().mkpath(folder));
    QCOMPARE(recordRun(history, ksgSpec(), finished(0.1), {}, "test"), QString());
    QString warning;
    {
      const WriteLock lock(history);
      warning = recordRun(history, ksgSpec(), finished(0.42), threePoints(), "test", nullptr, {"", folder});
    }
    // The warning says why and where the row waits: in the spool and beside the run's results; in SQLite's words,
    // without Qt's driver text ("Unable to fetch row").
    QVERIFY2(warning.contains("(database is locked)") && warning.contains(pendingSpool(history)) &&
                 warning.contains(QDir(folder).filePath(kPendingRowFile)),
             qPrintable(warning));
    QCOMPARE(spooled(history).size(), 1);
    QVERIFY(QFile::exists(QDir(folder).filePath(kPendingRowFile)));
    QCOMPARE(rows(history).size(), 1);  // a reader that only reads leaves it waiting
    QCOMPARE(spooled(history).size(), 1);
    const QString spoolFile = QDir(pendingSpool(history)).filePath(spooled(history).first());
    QVERIFY(QFile::copy(spoolFile, tmp.filePath("kept.json")));

    QCOMPARE(importPendingRuns(history), QString());  // the next writer
    QList<StoredRun> now = rows(history);
    QCOMPARE(now.size(), 2);
    QCOMPARE(*now.first().estimate, 0.42);  // newest first
    QCOMPARE(RunStore(history).curve(now.first().id).size(), 3);
    QVERIFY(spooled(history).isEmpty());
    QVERIFY(!QFile::exists(QDir(folder).filePath(kPendingRowFile)));

    // A spool file that outlived its import (a crash after the commit) goes in again under its key: still once.
    QVERIFY(!QFile::exists(pendingSpool(history)));  // the spool went with its last row
    QVERIFY(QDir().mkpath(pendingSpool(history)));
    QVERIFY(QFile::copy(tmp.filePath("kept.json"), spoolFile));
    QCOMPARE(recordRun(history, ksgSpec(), finished(0.7), {}, "test"), QString());
    now = rows(history);
    QCOMPARE(now.size(), 3);
    int pendingOnes = 0;
    for (const StoredRun& r : now) pendingOnes += r.estimate && *r.estimate == 0.42;
    QCOMPARE(pendingOnes, 1);
  }

  void theWindowsStoreTakesInWhatWaited() {
    QTemporaryDir tmp;
    const QString history = tmp.filePath("history.sqlite");
    QCOMPARE(recordRun(history, ksgSpec(), finished(0.1), {}, "test"), QString());
    {
      const WriteLock lock(history);
      QVERIFY(!recordRun(history, ksgSpec(), finished(0.2), {}, "window").isEmpty());
    }
    QCOMPARE(spooled(history).size(), 1);
    const RunStore store(history);  // the window's, opened to write
    QCOMPARE(store.list().size(), 2);
    QVERIFY(spooled(history).isEmpty());
  }

  // No spool where the history should be (its folder is a file): the row waits beside the results only, and the
  // warning says to copy it into a spool, where it then goes in as any spooled row; with no folder either, lost.
  void aRowWithNoSpoolWaitsBesideItsResultsOrSaysItIsLost() {
    QTemporaryDir tmp;
    QFile file(tmp.filePath("plain"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const QString history = tmp.filePath("plain/history.sqlite"), folder = tmp.filePath("run");
    QVERIFY(QDir().mkpath(folder));
    const QString lost = recordRun(history, ksgSpec(), finished(0.3), {}, "test");
    QVERIFY2(lost.startsWith("history: cannot use") && lost.contains("the run's row is lost"), qPrintable(lost));
    const QString kept = recordRun(history, ksgSpec(), finished(0.3), {}, "test", nullptr, {"", folder});
    const QString copy = QDir(folder).filePath(kPendingRowFile);
    QVERIFY2(kept.contains(copy + ", and enters the history once that file is copied into " + pendingSpool(history)),
             qPrintable(kept));
    const QString elsewhere = tmp.filePath("history.sqlite");
    QCOMPARE(recordRun(elsewhere, ksgSpec(), finished(0.1), {}, "test"), QString());
    QVERIFY(QDir().mkpath(pendingSpool(elsewhere)));
    QVERIFY(QFile::copy(copy, QDir(pendingSpool(elsewhere)).filePath("copied.json")));
    QCOMPARE(importPendingRuns(elsewhere), QString());
    QCOMPARE(rows(elsewhere).size(), 2);
    QVERIFY(!QFile::exists(pendingSpool(elsewhere)));  // the spool goes with its last row
    QVERIFY(!QFile::exists(copy));
  }

  void aRunIntoAFolderWhoseLastRunNeverCompletedReplacesItsRow() {
    QTemporaryDir tmp;
    const QString history = tmp.filePath("history.sqlite"), cell = tmp.filePath("cells/c1");
    const auto write = [&](double estimate) {
      RunResult r = finished(estimate);
      return writeRunFiles(cell, ksgSpec(), &r, threePoints(), {}, [&](const RunResult& done, const RecordPlace& at) {
        QCOMPARE(at.folder, cell);
        QCOMPARE(recordRun(history, ksgSpec(), done, threePoints(), "grid", nullptr, at), QString());
      });
    };
    QCOMPARE(write(0.5), QStringList());
    QCOMPARE(rows(history).size(), 1);
    const qint64 firstId = rows(history).first().id;
    // Killed after its row and before its summary's rename: the folder has its key and no summary.
    QVERIFY(QFile::remove(QDir(cell).filePath("summary.json")));
    QCOMPARE(write(0.6), QStringList());  // the resumed grid runs the cell again
    QList<StoredRun> now = rows(history);
    QCOMPARE(now.size(), 1);
    QCOMPARE(*now.first().estimate, 0.6);
    QCOMPARE(now.first().id, firstId);  // replaced under the id it had
    QCOMPARE(write(0.7), QStringList());  // a new run into a completed folder is a run of its own
    now = rows(history);
    QCOMPARE(now.size(), 2);
    QCOMPARE(*now.first().estimate, 0.7);
    QCOMPARE(*now.last().estimate, 0.6);

    // A key is this folder's own (issue 80's probe): one copied into a fresh folder, or a link planted there to
    // another folder's, starts a row of its own and leaves the other run's row and the link's target as they were.
    QVERIFY(QFile::remove(QDir(cell).filePath("summary.json")));  // c1's key would be taken again in c1 itself
    const QString keyFile = QDir(cell).filePath(".history-key");
    QFile key(keyFile);
    QVERIFY(key.open(QIODevice::ReadOnly));
    const QByteArray c1Key = key.readAll();
    key.close();
    const auto writeInto = [&](const QString& folder, double estimate) {
      RunResult r = finished(estimate);
      return writeRunFiles(folder, ksgSpec(), &r, threePoints(), {}, [&](const RunResult& done, const RecordPlace& at) {
        QCOMPARE(recordRun(history, ksgSpec(), done, threePoints(), "grid", nullptr, at), QString());
      });
    };
    const QString copied = tmp.filePath("cells/c2"), linked = tmp.filePath("cells/c3");
    QVERIFY(QDir().mkpath(copied) && QDir().mkpath(linked));
    QVERIFY(QFile::copy(keyFile, QDir(copied).filePath(".history-key")));
    QVERIFY(QFile::link(keyFile, QDir(linked).filePath(".history-key")));
    QCOMPARE(writeInto(copied, 0.8), QStringList());
    QCOMPARE(writeInto(linked, 0.9), QStringList());
    now = rows(history);
    QCOMPARE(now.size(), 4);
    QList<double> estimates;
    for (const StoredRun& run : now) estimates << *run.estimate;
    std::sort(estimates.begin(), estimates.end());
    QCOMPARE(estimates, (QList<double>{0.6, 0.7, 0.8, 0.9}));
    QVERIFY(key.open(QIODevice::ReadOnly));
    QCOMPARE(key.readAll(), c1Key);
    QVERIFY(!QFileInfo(QDir(linked).filePath(".history-key")).isSymLink());
  }
};

QTEST_GUILESS_MAIN(TestPendingRows)
#include "test_pending_rows.moc"
