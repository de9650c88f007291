// The run history: a recorded run reads back field by field with its curve; a failed run has no estimate; filters
// select; delete takes the curve with it; two threads write at once; a file that is not a database gives a clear
// message and nothing else breaks; the window's side of the history keeps every row beside a grid writing from
// another process while code of its own process opens and closes the database file (issue 44).
#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "results/run_store.h"

using namespace milab;

namespace {

RunSpec spec(const QString& method, int seed = 1) {
  RunSpec s;
  s.task = "gaussian2";
  s.taskParams = {{"dim", 4}, {"mi", 2.0}};
  s.method = method;
  s.methodParams = {{"K", 16}};
  s.steps = 3;
  s.seed = seed;
  return s;
}

RunResult finished(double estimate) {
  RunResult r;
  r.status = RunStatus::Finished;
  r.estimate = estimate;
  r.stderror = 0.01;
  r.targetName = "I(x;y)";
  r.trueMi = 2.0;
  r.ceilings = {{"log K", std::log(16.0)}};
  r.terms = {{"I_NCE", estimate}};
  r.seconds = 1.5;
  r.stepsDone = 3;
  r.device = "cpu";
  return r;
}

QVector<CurvePoint> curve() { return {{1, 0.5, -0.5, 0.1}, {2, 0.75, -0.75, 0.2}, {3, 1.25, -1.25, 0.3}}; }

// What Qt's file dialog did to a folder it listed: open each file, read its first bytes to guess its type, close
// it. The close drops every POSIX lock this process holds on that file, SQLite's too.
void openReadAndClose(const QString& path) {
  QFile f(path);
  if (f.open(QIODevice::ReadOnly)) f.read(16);
}

// The test binary started as another process that records one grid cell: `--record-one DB SEED`.
constexpr char kRecordOne[] = "--record-one";

}  // namespace

class TestRunStore : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void recordedRunReadsBack() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("sub/history.sqlite");  // the folder is made when missing
    qint64 id = 0;
    QCOMPARE(recordRun(db, spec("infonce"), finished(1.2), curve(), "cli /tmp/x", &id), QString());
    QVERIFY(id > 0);
    RunStore store(db);
    QCOMPARE(store.error(), QString());
    const std::optional<StoredRun> r = store.find(id);
    QVERIFY(r);
    QCOMPARE(r->method, QString("infonce"));
    QCOMPARE(r->status, QString("finished"));
    QCOMPARE(*r->estimate, 1.2);
    QCOMPARE(*r->stderror, 0.01);
    QCOMPARE(r->trueValue, 2.0);
    QCOMPARE(r->ceilings.size(), 1);
    QCOMPARE(r->ceilings[0].name, QString("log K"));
    QCOMPARE(r->terms[0].value, 1.2);
    QCOMPARE(r->stepsDone, 3);
    QCOMPARE(r->origin, QString("cli /tmp/x"));
    QCOMPARE(r->spec.value("K").toInt(), 16);
    QVERIFY(r->started.msecsTo(r->ended) >= 1400);
    QVERIFY(!r->version.isEmpty());
    const QVector<CurvePoint> c = store.curve(id);
    QCOMPARE(c.size(), 3);
    QCOMPARE(c[2].step, 3);
    QCOMPARE(c[2].estimate, 1.25);
    QCOMPARE(c[2].loss, -1.25);
    QCOMPARE(storedRunJson(*r).value("estimate").toDouble(), 1.2);
  }

  void failedRunHasNoEstimate() {
    QTemporaryDir tmp;
    RunResult failed = finished(0);
    failed.status = RunStatus::Failed;
    failed.reason = "training diverged: non-finite loss at step 2";
    qint64 id = 0;
    QCOMPARE(recordRun(tmp.filePath("h.sqlite"), spec("nwj"), failed, {}, "window", &id), QString());
    RunStore store(tmp.filePath("h.sqlite"));
    const std::optional<StoredRun> r = store.find(id);
    QVERIFY(!r->estimate && !r->stderror);
    QVERIFY(storedRunJson(*r).value("estimate").isNull());
    QCOMPARE(r->reason, failed.reason);
  }

  void filtersSelectAndDeleteTakesTheCurve() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("h.sqlite");
    for (const char* m : {"infonce", "nwj", "infonce"})
      QCOMPARE(recordRun(db, spec(m), finished(1), curve(), "cli"), QString());
    RunStore store(db);
    QCOMPARE(store.list().size(), 3);
    QCOMPARE(store.list({"", "infonce", "", "", 0}).size(), 2);
    QCOMPARE(store.list({"", "", "failed", "", 0}).size(), 0);
    QCOMPARE(store.list({"", "", "", "nwj", 0}).size(), 1);  // text in the experiment
    QCOMPARE(store.list({"", "", "", "", 2}).size(), 2);
    const qint64 newest = store.list().first().id;
    QVERIFY(newest > store.list().last().id);  // newest first
    QCOMPARE(store.remove({newest}), QString());
    QCOMPARE(store.list().size(), 2);
    QVERIFY(store.curve(newest).isEmpty());
  }

  // Grid jobs write from several threads at once: every row lands.
  void concurrentWritersAllLand() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("h.sqlite");
    std::vector<std::thread> writers;
    std::atomic<int> failures{0};
    std::mutex mutex;
    QString firstError;
    for (int t = 0; t < 4; ++t)
      writers.emplace_back([&, t] {
        for (int i = 0; i < 10; ++i)
          if (const QString e = recordRun(db, spec("infonce", t * 100 + i), finished(i), curve(), "grid");
              !e.isEmpty()) {
            ++failures;
            std::lock_guard<std::mutex> lock(mutex);
            if (firstError.isEmpty()) firstError = e;
          }
      });
    for (auto& w : writers) w.join();
    QVERIFY2(failures.load() == 0, qPrintable(firstError));
    QCOMPARE(RunStore(db).list().size(), 40);
  }

  // The window's history beside a grid in another process (issue 44): each round, code of this process opens and
  // closes the database and its side files (as a file dialog listing the folder did), then another process
  // records a cell while three of this process's threads record runs and the reader lists. After each round the
  // reader sees every row, SQLite's quick_check passes, and once every connection has closed no side file is left:
  // the database file alone, copied elsewhere, holds every row. Before the fix the reader's connection lived as
  // long as the window; the first close dropped its lock and the other process deleted the -wal and -shm under it.
  void windowWritersAnotherProcessAndAReaderKeepEveryRow() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    RunStore reader(db);
    QCOMPARE(reader.error(), QString());
    int expected = 0;
    for (int round = 0; round < 6; ++round) {
      for (const QString& f : {db, db + "-wal", db + "-shm"}) openReadAndClose(f);
      QProcess other;
      other.setProcessChannelMode(QProcess::ForwardedErrorChannel);
      other.start(QCoreApplication::applicationFilePath(), {kRecordOne, db, QString::number(round)});
      std::atomic<int> failures{0};
      std::vector<std::thread> writers;
      for (int t = 0; t < 3; ++t)
        writers.emplace_back([&, t] {
          failures += !recordRun(db, spec("nwj", round * 10 + t), finished(t), curve(), "window").isEmpty();
        });
      while (other.state() != QProcess::NotRunning && !other.waitForFinished(10)) {
        reader.list();  // the reader lists while the others write
        QCOMPARE(reader.error(), QString());
      }
      for (auto& w : writers) w.join();
      QCOMPARE(other.exitStatus(), QProcess::NormalExit);
      QCOMPARE(other.exitCode(), 0);
      QCOMPARE(failures.load(), 0);
      expected += 4;

      QCOMPARE(reader.list().size(), expected);
      QCOMPARE(reader.error(), QString());
      QCOMPARE(reader.check(), QString());
      QVERIFY2(!QFile::exists(db + "-wal") && !QFile::exists(db + "-shm"),
               qPrintable(QStringLiteral("round %1: a side file outlived every connection").arg(round)));
      const QString alone = tmp.filePath(QStringLiteral("alone-%1.sqlite").arg(round));
      QVERIFY(QFile::copy(db, alone));
      QCOMPARE(RunStore(alone).list().size(), expected);
    }
  }

  // A damaged page is an error of the call that reaches it, and quick_check names it.
  void aDamagedDatabaseSaysSo() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("h.sqlite");
    for (int i = 0; i < 60; ++i) QCOMPARE(recordRun(db, spec("infonce", i), finished(i), curve(), "cli"), QString());
    RunStore store(db);
    QCOMPARE(store.check(), QString());
    QCOMPARE(store.changeStamp(), QStringLiteral("60:60"));
    QFile f(db);
    QVERIFY(f.size() > 3 * 4096);
    QVERIFY(f.open(QIODevice::ReadWrite));
    f.seek(4096);  // page 2, the runs table's root (the first table created): garbage
    f.write(QByteArray(4096, char(0x5a)));
    f.close();
    QVERIFY2(store.check().contains("damaged") || store.check().contains("malformed"), qPrintable(store.check()));
    QVERIFY(store.list().isEmpty());
    QVERIFY2(!store.error().isEmpty(), "a read that reached a damaged page says so");
  }

  void aFileThatIsNotADatabaseSaysSo() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("h.sqlite");
    QFile f(db);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(4096, 'x'));
    f.close();
    const QString err = recordRun(db, spec("infonce"), finished(1), curve(), "cli");
    QVERIFY2(err.startsWith("history: cannot use '" + db + "'"), qPrintable(err));
    QVERIFY(err.contains("not a database"));
    QVERIFY(!RunStore(db).error().isEmpty());
    QVERIFY(RunStore(db).list().isEmpty());
  }
};

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  if (argc == 4 && QByteArray(argv[1]) == kRecordOne) {
    const QString err = recordRun(QString::fromLocal8Bit(argv[2]), spec("infonce", std::atoi(argv[3])), finished(1),
                                  curve(), "grid other-process");
    if (!err.isEmpty()) std::fprintf(stderr, "%s\n", qPrintable(err));
    return err.isEmpty() ? 0 : 1;
  }
  TestRunStore test;
  QTEST_SET_MAIN_SOURCE_PATH
  return QTest::qExec(&test, argc, argv);
}
#include "test_run_store.moc"
