// Threads that open the history for the first time at once, then the application's end: the process must end.
// Qt 6.4's QtSql registers its exit cleanup on its first use through an unguarded flag; two threads racing there
// registered it twice, and at exit each run of it registered the next, forever (a grid with --jobs 2 hung after its
// table; run_store.cpp's registerSqlCleanupOnce). Only a process's first use races, so each try is a fresh process:
// a fork taken in main, before this suite's QCoreApplication, any thread or any use of QtSql. The race is a window of
// three instructions: with registerSqlCleanupOnce taken out, one run of this suite in five failed here (a try in
// about 700 hung; eight threads calling QSqlDatabase::addDatabase at once hang one process in 40). A smoke test,
// then, not a proof: it fails when the hang comes back often, and it checks the ending of every try.
#include <sys/wait.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <csignal>
#include <thread>
#include <vector>

#include "results/run_store.h"
#include "time_limits.h"

namespace {

constexpr int kTries = 150, kThreads = 8;

struct Outcome {
  int ended = 0;  // tries that ended by themselves, every history refused as it should be
  QString problem;
};
Outcome outcome;

// A child: its own application, kThreads threads released together onto their first history, then the
// application's end, where QtSql's cleanup runs. The histories are refused at once (their folder is a file): what
// races is QtSql's first use, which comes before any file, and a try costs a few milliseconds. _exit: nothing else
// of the parent's is torn down.
[[noreturn]] void oneTry(const QString& notAFolder) {
  int argc = 1;
  char name[] = "test_history_threads";
  char* argv[] = {name, nullptr};
  std::atomic<int> ready{0}, opened{0};
  {
    QCoreApplication app(argc, argv);
    QStringList paths;
    for (int t = 0; t < kThreads; ++t) paths << QDir(notAFolder).filePath(QStringLiteral("h%1.sqlite").arg(t));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < kThreads) {
        }
        const milab::RunStore store(paths[t]);
        if (store.error().isEmpty()) opened.fetch_add(1);
      });
    for (std::thread& t : threads) t.join();
  }
  _exit(opened.load() == 0 ? 0 : 1);
}

// Waits for the child as long as a suite may run (untilDoneMs); one that is still running then is killed.
int waitFor(pid_t child) {
  QElapsedTimer clock;
  clock.start();
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (clock.elapsed() > untilDoneMs()) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return -1;
    }
    ::usleep(1000);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void tryMany() {
  QTemporaryDir folder;
  const QString notAFolder = folder.filePath("a-file");
  QFile(notAFolder).open(QIODevice::WriteOnly);
  for (int attempt = 0; attempt < kTries && outcome.problem.isEmpty(); ++attempt) {
    const pid_t child = ::fork();
    if (child == 0) oneTry(notAFolder);
    const int code = child < 0 ? -2 : waitFor(child);
    if (code == 0)
      ++outcome.ended;
    else
      outcome.problem = code == 1    ? QStringLiteral("try %1: a history under a file was opened").arg(attempt)
                        : code == -2 ? QStringLiteral("fork failed")
                                     : QStringLiteral("try %1 did not end (killed)").arg(attempt);
  }
}

}  // namespace

class TestHistoryThreads : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void firstHistoriesOpenedTogetherLetTheProcessEnd() {
    QVERIFY2(outcome.problem.isEmpty(), qPrintable(outcome.problem));
    QCOMPARE(outcome.ended, kTries);
  }
};

// The tries run in main, before the suite's QCoreApplication: each child's first use of QtSql is its own.
QTEST_MAIN_WRAPPER(TestHistoryThreads, tryMany(); QTEST_QAPP_SETUP(QCoreApplication))

#include "test_history_threads.moc"
