// Nothing lost, nothing pretended when the disk fills: every write is checked, a run or grid cell whose files could
// not be written ends as failed naming the errno (and keeps its reading in the reason), summary.json is never left
// empty or cut, and a folder that cannot be written at the start is not called busy.
//
// The full disk is a file size limit (RLIMIT_FSIZE, what `ulimit -f` sets) on the child process: its writes past
// the limit fail with EFBIG through the same system calls a full disk fails with ENOSPC, and no test needs the
// right to mount a small tmpfs. milab-cli ignores SIGXFSZ, so the limit gives errors instead of a kill. (Checked by
// hand on a 1 MB tmpfs too: the same messages with "No space left on device"; see the closing note of issue 30.)
#include <sys/resource.h>

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "cli_process.h"
#include "results/run_files.h"
#include "time_limits.h"

using namespace milab;

namespace {

// milab-cli with every file it writes limited to `maxFileBytes`.
CliResult cliWithFileLimit(const QStringList& args, rlim_t maxFileBytes) {
  QProcess p;
  p.setChildProcessModifier([maxFileBytes] {
    const rlimit limit{maxFileBytes, maxFileBytes};
    ::setrlimit(RLIMIT_FSIZE, &limit);
  });
  p.start(MILAB_CLI_PATH, args);
  p.waitForFinished(untilDoneMs());
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromLocal8Bit(p.readAllStandardOutput()),
          QString::fromLocal8Bit(p.readAllStandardError())};
}

// Every file under `dir` (hidden ones too), relative to it.
QStringList filesUnder(const QString& dir) {
  QStringList out;
  QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) out << QDir(dir).relativeFilePath(it.next());
  out.sort();
  return out;
}

// Lowers this process's own file size limit for one scope (SIGXFSZ ignored meanwhile), as milab-cli meets it.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    previous_ = std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{bytes, saved_.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_);
  }

 private:
  rlimit saved_{};
  void (*previous_)(int) = nullptr;
};

const QString kFileTooLarge = QString::fromLocal8Bit(std::strerror(EFBIG));  // "File too large"

}  // namespace

class TestCliFullDisk : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The one writer every file goes through: a write that fails leaves the file as it was (here: the previous
  // summary), not an empty or cut one, and says why. Through Qt's write buffer this committed a cut file.
  void saveAtomicallyKeepsTheOldFileWhenTheWriteFails() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("summary.json");
    QCOMPARE(saveAtomically(path, "old\n"), QString());
    QString error;
    {
      const FileSizeLimit limit(4096);
      error = saveAtomically(path, QByteArray(20000, 'x'));
    }
    QCOMPARE(error, QStringLiteral("%1: cannot write (%2)").arg(path, kFileTooLarge));
    QCOMPARE(readAll(path), QByteArray("old\n"));
    QCOMPARE(filesUnder(tmp.path()), QStringList{"summary.json"});  // no temporary file left behind
  }

  // A run whose plots cannot be written: failed, exit 1, the file and the errno named, its reading kept in the
  // reason; no summary.json (the mark of a complete folder) and no cut plot.
  void runThatCannotWriteItsFilesFailsNamingTheErrno() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out"), db = tmp.filePath("h.sqlite");
    // 30 kB: the curve (about 2 kB) and the history (20 kB) fit, the PNG plot (about 37 kB) does not.
    const CliResult r = cliWithFileLimit({"run", "--task", "gaussian2", "--dim", "3", "--mi", "1", "--method", "infonce",
                                          "--K", "16", "--steps", "50", "--device", "cpu", "--db", db, "--out", out},
                                         30000);
    QCOMPARE(r.code, 1);
    const QString why = QStringLiteral("its files could not be written: %1/plot.png: cannot write (%2); it read ")
                            .arg(out, kFileTooLarge);
    QVERIFY2(r.out.contains("infonce gaussian2: failed: " + why), qPrintable(r.out));
    QVERIFY2(r.err.contains("milab-cli: run failed: " + why), qPrintable(r.err));
    const QStringList files = filesUnder(out);
    QVERIFY2(!files.contains("summary.json") && !files.contains("plot.png"), qPrintable(files.join(' ')));
    QVERIFY2(files.contains("curve.csv"), qPrintable(files.join(' ')));
    // Beside them only the run's record key and, since the history cannot take its row (below), that row kept as
    // a pending record (results/pending_rows.h): nothing lost.
    for (const QString& f : files)
      QVERIFY2(f == "curve.csv" || f.startsWith("plot.") || f == ".history-key" || f == "history-pending.json",
               qPrintable(files.join(' ')));
    // The history, under the same limit, cannot grow its write-ahead log (about 60 kB) either: a warning, not a
    // crash, that says where the row waits. (Where it can, recordRun gets the failed result: cli_app.cpp records
    // withFilesNotWritten's.)
    QVERIFY2(r.err.contains("milab-cli: warning: history: cannot use"), qPrintable(r.err));
    QVERIFY2(files.contains("history-pending.json") && r.err.contains(out + "/history-pending.json"),
             qPrintable(r.err));
  }

  // A grid in which some cells' files fit and others' do not: grid.csv lists those cells as failed with the
  // reason (not finished with estimates), their folders hold no summary.json, and a rerun would train them again.
  void gridCellsThatCannotBeWrittenAreFailedInTheTable() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out");
    // 8 kB: the 20-step cells' curves (under 1 kB) fit, the 400-step cells' (about 16 kB) do not.
    const CliResult r = cliWithFileLimit({"run", "--task", "gaussian2", "--dim", "3", "--mi", "1", "--method",
                                          "infonce,nwj", "--K", "16", "--steps", "20,400", "--device", "cpu", "--db",
                                          tmp.filePath("h.sqlite"), "--out", out},
                                         8000);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("4 cells, 2 failed (2 not written)"), qPrintable(r.out));
    const QList<QByteArray> rows = readAll(out + "/grid.csv").trimmed().split('\n');
    QCOMPARE(rows.size(), 5);
    const QList<QByteArray> header = rows[0].split(',');
    const int status = int(header.indexOf("status")), estimate = int(header.indexOf("estimate"));
    for (const QByteArray& row : rows.mid(1)) {
      const bool long_ = row.contains(",400,");
      const QString cell = QString::fromUtf8(row.left(row.indexOf(',')));
      QCOMPARE(QString(row.split(',')[status]), QString(long_ ? "failed" : "finished"));
      QCOMPARE(row.split(',')[estimate].isEmpty(), long_);
      if (long_) QVERIFY2(row.contains("curve.csv: cannot write (" + kFileTooLarge.toUtf8() + ")"), row.constData());
      QCOMPARE(QFileInfo::exists(out + "/cells/" + cell + "/summary.json"), !long_);
    }
  }

  // A folder that cannot be written at the start is refused as such (exit 2, the errno), not reported as in use
  // by pid 0, and a folder made for the run is not left behind.
  void unwritableAtTheStartIsNotABusyFolder() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("new/out");
    const CliResult r = cliWithFileLimit(
        {"run", "--task", "gaussian2", "--method", "infonce", "--steps", "5", "--device", "cpu", "--out", out}, 1024);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QStringLiteral("milab-cli: out: cannot write in '%1' (%2)\n").arg(out, kFileTooLarge));
    QVERIFY(!QFileInfo::exists(out));
  }
};

QTEST_GUILESS_MAIN(TestCliFullDisk)
#include "test_cli_full_disk.moc"
