// Signals and kills that come while a run writes its record: a stop signal during the final writes still ends the
// command as 128 + the signal, a second one ends it at once, and a kill -9 there never leaves a folder that says
// finished without its history row.
//
// The test holds the history database's write lock (another process writing it), so milab-cli, its files written,
// waits in the history commit (SQLite's busy timeout) for as long as the test wants: the signal or the kill lands
// at that moment on any machine, however fast or slow. Without the lock the window is a few milliseconds.
#include <sys/types.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

#include "cli_process.h"
#include "time_limits.h"

namespace {

// Holds the write lock of the SQLite database at `path` (as another milab recording a run would) until released.
class HeldDatabase {
 public:
  explicit HeldDatabase(const QString& path) : name_(QStringLiteral("held-%1").arg(quintptr(this))) {
    QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", name_);
    db.setDatabaseName(path);
    if (!db.open()) qFatal("cannot open %s", qPrintable(path));
    QSqlQuery q(db);
    if (!q.exec("PRAGMA journal_mode=WAL") || !q.exec("BEGIN IMMEDIATE"))
      qFatal("cannot lock %s", qPrintable(path));
  }
  void release() {
    {
      QSqlDatabase db = QSqlDatabase::database(name_);
      QSqlQuery(db).exec("ROLLBACK");
      db.close();
    }
    QSqlDatabase::removeDatabase(name_);
    released_ = true;
  }
  ~HeldDatabase() {
    if (!released_) release();
  }

 private:
  QString name_;
  bool released_ = false;
};

}  // namespace

class TestCliLateSignals : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void signalDuringTheFinalWritesStillStops_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<bool>("grid");
    QTest::newRow("SIGTERM, one run") << int(SIGTERM) << false;
    QTest::newRow("SIGINT, a grid") << int(SIGINT) << true;
  }
  // The run ended and its files are written when the signal comes: it still exits 128 + N (a script that sent
  // SIGTERM must not read 0), and its record is completed (summary.json and the history row), not dropped.
  void signalDuringTheFinalWritesStillStops() {
    QFETCH(int, signal);
    QFETCH(bool, grid);
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out"), db = tmp.filePath("h.sqlite");
    const QString folder = grid ? out + "/cells/steps-20" : out;
    HeldDatabase held(db);
    QProcess p;
    p.start(MILAB_CLI_PATH, {"run", "--task", "gaussian2", "--dim", "3", "--method", "infonce", "--K", "8", "--steps",
                             grid ? "20,30" : "20", "--device", "cpu", "--db", db, "--out", out});
    QVERIFY(p.waitForStarted());
    // Its curve and plots are written; it now waits on the history before summary.json goes into place.
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(folder + "/curve.csv"), untilDoneMs());
    QVERIFY(!QFileInfo::exists(folder + "/summary.json"));
    signalChild(p, signal);
    held.release();
    QVERIFY(p.waitForFinished(untilDoneMs()));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 128 + signal);
    QVERIFY(QFileInfo::exists(folder + "/summary.json"));
    const CliResult history = cli({"history", "--db", db, "--json"});
    QCOMPARE(history.code, 0);
    QVERIFY(!QJsonDocument::fromJson(history.out.toUtf8()).array().isEmpty());
  }

  // A second signal does not wait for what the first lets finish: the command exits at once with 128 + N, the
  // files as far as they are (each whole or absent). Here it waits on the history, held for as long as the test
  // likes: it must end while the lock is still held, with no summary.json, since the row was never written.
  void secondSignalExitsAtOnce() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out"), db = tmp.filePath("h.sqlite");
    HeldDatabase held(db);
    QProcess p;
    p.start(MILAB_CLI_PATH, {"run", "--task", "gaussian2", "--dim", "3", "--method", "infonce", "--K", "8", "--steps",
                             "20", "--device", "cpu", "--db", db, "--out", out});
    QVERIFY(p.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(out + "/plot.svg"), untilDoneMs());  // now waiting on the history
    signalChild(p, SIGTERM);
    // Two signals sent at once merge into one pending signal: the second goes once the first was taken.
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += p.readAllStandardError()).contains("a second signal exits at once"),
                             untilDoneMs());
    signalChild(p, SIGTERM);
    // SQLite's busy timeout (15 s) would let a process that ignores the second signal end on its own, after
    // writing summary.json: the absence of that file, not the time, is what tells the two apart.
    QVERIFY(p.waitForFinished(untilDoneMs()));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 128 + SIGTERM);
    QVERIFY(!QFileInfo::exists(out + "/summary.json"));
    QVERIFY(QFileInfo::exists(out + "/curve.csv"));
    // The exit is explained on stderr, by a line of its own (issue 80: a late signal had left none).
    said += p.readAllStandardError();
    QVERIFY2(said.contains("milab-cli: stopped at once by a second signal\n"), said.constData());
  }

  // kill -9 while the run's row is being committed: the folder must not say finished (no summary.json) since the
  // history has no row. The next run into the folder then writes both.
  void killBeforeTheHistoryRowLeavesNoFinishedFolder() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out"), db = tmp.filePath("h.sqlite");
    const QStringList args{"run",   "--task", "gaussian2", "--dim", "3",  "--method", "infonce", "--K", "8",
                           "--steps", "20",   "--device",  "cpu",   "--db", db,       "--out",   out};
    {
      HeldDatabase held(db);
      QProcess p;
      p.start(MILAB_CLI_PATH, args);
      QVERIFY(p.waitForStarted());
      QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(out + "/plot.svg"), untilDoneMs());  // the last file before it
      signalChild(p, SIGKILL);
      QVERIFY(p.waitForFinished(untilDoneMs()));
    }
    QVERIFY(!QFileInfo::exists(out + "/summary.json"));
    QCOMPARE(QJsonDocument::fromJson(cli({"history", "--db", db, "--json"}).out.toUtf8()).array().size(), 0);
    const CliResult again = cli(args);
    QCOMPARE(again.code, 0);
    QVERIFY(QFileInfo::exists(out + "/summary.json"));
    QCOMPARE(QJsonDocument::fromJson(cli({"history", "--db", db, "--json"}).out.toUtf8()).array().size(), 1);
  }
};

QTEST_GUILESS_MAIN(TestCliLateSignals)
#include "test_cli_late_signals.moc"
