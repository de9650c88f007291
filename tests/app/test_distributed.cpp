// Grids spread over processes: --shard I/N with a final collect, and mpirun (Open MPI). Both must give the grid.csv
// of --jobs 1 (but for seconds), resume, and refuse bad input with exit 2 and nothing written.
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_process.h"
#include "time_limits.h"

namespace {

// Six cells, two methods: short enough for CI, enough cells for three ranks to share.
const QStringList kGrid{"run",     "--task",  "gaussian2", "--dim",  "4",      "--mi", "2", "--method",
                        "infonce,nwj", "--K", "8,16,32",   "--steps", "150"};

}  // namespace

class TestDistributed : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  QByteArray straight_;  // grid.csv of --jobs 1

  QString mpirun() const { return QStandardPaths::findExecutable("mpirun"); }

 private Q_SLOTS:
  void initTestCase() {
    const CliResult r = cli(kGrid + QStringList{"--jobs", "1", "--out", tmp_.filePath("straight")});
    QCOMPARE(r.code, 0);
    straight_ = withoutSeconds(readAll(tmp_.filePath("straight/grid.csv")));
    QCOMPARE(straight_.trimmed().count('\n'), 6);  // a header and six cells
  }

  void shardsThenCollectGiveTheSameTable() {
    const QString out = tmp_.filePath("shards");
    for (const char* shard : {"0/2", "1/2"}) {
      const CliResult r = cli(kGrid + QStringList{"--shard", shard, "--out", out});
      QCOMPARE(r.code, 0);
      QVERIFY2(r.out.contains(QStringLiteral("shard %1: 3 cells, 0 failed; collect with").arg(shard)),
               qPrintable(r.out));
      QVERIFY(!QFileInfo::exists(out + "/grid.csv"));  // a shard writes no table
    }
    const CliResult collect = cli(kGrid + QStringList{"--out", out});
    QCOMPARE(collect.code, 0);
    QCOMPARE(collect.out.count(", reused"), 6);  // nothing reran
    QCOMPARE(withoutSeconds(readAll(out + "/grid.csv")), straight_);
    QCOMPARE(QDir(out).entryList({".milab-shard-*.lock"}, QDir::Files | QDir::Hidden), QStringList());
  }

  // The Slurm array script as two array tasks would run it (its environment), then the collect.
  void slurmArrayScriptShardsTheGrid() {
    QFile grid(tmp_.filePath("grid.json"));
    QVERIFY(grid.open(QIODevice::WriteOnly));
    grid.write(R"({"task": "gaussian2", "dim": 4, "mi": 2, "steps": 150,
                   "grid": {"K": [8, 16, 32]}, "methods": [{"method": "infonce"}, {"method": "nwj"}]})");
    grid.close();
    const QString out = tmp_.filePath("slurm");
    for (const char* task : {"0", "1"}) {
      QProcess p;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert("SLURM_ARRAY_TASK_ID", task);
      env.insert("SLURM_ARRAY_TASK_COUNT", "2");
      env.insert("MILAB_CLI", MILAB_CLI_PATH);
      p.setProcessEnvironment(env);
      p.start("bash", {MILAB_SOURCE_DIR "/resources/cluster/slurm-grid-array.sh", grid.fileName(), out});
      QVERIFY(p.waitForFinished(untilDoneMs()));
      QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
      QVERIFY(p.readAllStandardOutput().contains(QByteArray("shard ") + task + "/2: 3 cells"));
    }
    const CliResult collect = cli({"run", grid.fileName(), "--out", out});
    QCOMPARE(collect.code, 0);
    QCOMPARE(collect.out.count(", reused"), 6);
    QVERIFY(QFileInfo::exists(out + "/grid.csv"));
  }

  void badShardsExit2AndWriteNothing_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("2/2") << QStringList{"--shard", "2/2"} << "shard: I must be in [0, 1] for N = 2";
    QTest::newRow("x") << QStringList{"--shard", "x"} << "shard: must be I/N with 0 <= I < N";
    QTest::newRow("1/0") << QStringList{"--shard", "1/0"} << "shard: N must be at least 1";
    QTest::newRow("-1/2") << QStringList{"--shard", "-1/2"} << "shard: must be I/N";
    // The grid's own flags narrowed to one run (a flag is given once: command_line.cpp refuses a second).
    QTest::newRow("one run") << QStringList{"run", "--task", "gaussian2", "--dim", "4", "--method", "infonce", "--K",
                                            "8", "--steps", "150", "--shard", "0/2"}
                             << "shard: the experiment is one run";
  }
  void badShardsExit2AndWriteNothing() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    const QString out = tmp_.filePath("bad-shard");
    const CliResult r = cli((args.first() == "run" ? args : kGrid + args) + QStringList{"--out", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith("milab-cli: " + error), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(!QFileInfo::exists(out));
  }

  // A job array larger than the grid: its extra tasks say so and touch nothing.
  void anEmptyShardRunsNothing() {
    const QString out = tmp_.filePath("empty-shard");
    const CliResult r = cli(kGrid + QStringList{"--shard", "7/8", "--out", out});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("shard 7/8: no cells (the grid has 6); nothing to run"), qPrintable(r.out));
    QVERIFY(!QFileInfo::exists(out));
  }

  // The collect refuses while a shard still holds its lock (it would rerun the cells that shard is writing).
  void collectWaitsForRunningShards() {
    const QString out = tmp_.filePath("busy");
    QVERIFY(QDir().mkpath(out));
    QLockFile shardLock(out + "/.milab-shard-1-of-2.lock");
    QVERIFY(shardLock.tryLock(0));
    const CliResult r = cli(kGrid + QStringList{"--out", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("out: a shard (pid " + QString::number(QCoreApplication::applicationPid())),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(out + "/cells"));
  }

  // Every writer of a folder checks the others (issue 30: a shard beside a running grid trained its cells twice,
  // and a single run was accepted beside a shard): a shard refuses a folder whose main lock is held (a grid or a
  // run) or where a shard of another split writes; a single run refuses one where a shard writes.
  void writersOfOneFolderExcludeEachOther() {
    const QString out = tmp_.filePath("writers");
    QVERIFY(QDir().mkpath(out));
    const QString pid = QString::number(QCoreApplication::applicationPid());
    {
      QLockFile grid(out + "/.milab.lock");  // a whole grid (or a run) writing there
      QVERIFY(grid.tryLock(0));
      const CliResult shard = cli(kGrid + QStringList{"--shard", "0/2", "--out", out});
      QCOMPARE(shard.code, 2);
      QCOMPARE(shard.err, QStringLiteral("milab-cli: out: '%1' is in use by pid %2 (a whole grid or a run writing "
                                         "there); a shard writes only beside the other shards of its grid\n")
                              .arg(out, pid));
    }
    {
      QLockFile shard(out + "/.milab-shard-1-of-3.lock");
      QVERIFY(shard.tryLock(0));
      const CliResult other = cli(kGrid + QStringList{"--shard", "0/2", "--out", out});
      QCOMPARE(other.code, 2);
      QVERIFY2(other.err.startsWith("milab-cli: out: shard 1/3 of another split is writing in"), qPrintable(other.err));
      const CliResult sameSplit = cli(kGrid + QStringList{"--shard", "0/3", "--out", out});  // its own cells: fine
      QVERIFY2(sameSplit.code == 0, qPrintable(sameSplit.err));
      const CliResult single = cli({"run", "--task", "gaussian2", "--dim", "3", "--method", "infonce", "--K", "8",
                                    "--steps", "5", "--device", "cpu", "--out", out});
      QCOMPARE(single.code, 2);
      QVERIFY2(single.err.startsWith("milab-cli: out: a shard (pid " + pid), qPrintable(single.err));
    }
    QVERIFY(!QFileInfo::exists(out + "/summary.json"));
  }

  void mpiGridGivesTheSameTableAndResumes() {
    if (mpirun().isEmpty()) {
      if (qEnvironmentVariableIsSet("MILAB_REQUIRE_MPI")) QFAIL("mpirun not found, and MILAB_REQUIRE_MPI is set");
      QSKIP("mpirun not found (apt-get install openmpi-bin libopenmpi-dev)");
    }
    const QStringList mpi{"--allow-run-as-root", "--oversubscribe", "-np", "3", MILAB_CLI_PATH};
    const QString out = tmp_.filePath("mpi");
    const CliResult r = launch(mpirun(), mpi + kGrid + QStringList{"--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QCOMPARE(withoutSeconds(readAll(out + "/grid.csv")), straight_);
    // Dynamic dispatch: the cells were spread (rank 0 runs cells between messages too).
    QVERIFY2(r.out.contains("(rank 1)") || r.out.contains("(rank 2)"), qPrintable(r.out));
    const CliResult again = launch(mpirun(), mpi + kGrid + QStringList{"--out", out});
    QCOMPARE(again.code, 0);
    QCOMPARE(again.out.count(", reused"), 6);
  }

  void mpiBadInputExits2Once() {
    if (mpirun().isEmpty()) QSKIP("mpirun not found");
    const QString out = tmp_.filePath("mpi-bad");
    const QStringList mpi{"--allow-run-as-root", "--oversubscribe", "-np", "3", MILAB_CLI_PATH};
    const CliResult jobs = launch(mpirun(), mpi + kGrid + QStringList{"--jobs", "2", "--out", out});
    QCOMPARE(jobs.code, 2);
    QCOMPARE(jobs.err.count("milab-cli: jobs: under mpirun each rank runs one cell at a time"), 1);
    const CliResult shard = launch(mpirun(), mpi + kGrid + QStringList{"--shard", "3/3", "--out", out});
    QCOMPARE(shard.code, 2);
    QCOMPARE(shard.err.count("milab-cli: shard: I must be in [0, 2]"), 1);
    QVERIFY(!QFileInfo::exists(out));
  }

  // Issue 22: a seed gives the same digits whatever the cores the process may use. OpenMP starts every new thread
  // with as many threads as cores (or OMP_NUM_THREADS), OpenBLAS splits a GEMM's sums by that count, and mpirun
  // binds each rank to one core: a run's worker that did not set its own count computed the K = 32 and K = 128
  // cells here differently with 2 cores, under taskset -c 0, with OMP_NUM_THREADS=2 and under mpirun. Every run
  // thread now sets one intra-op thread itself (engine/device.h: configureThisThread).
  void sameDigitsWhateverTheCoresAffinityOrOpenMp() {
    const QStringList grid{"run",       "--task", "gaussian2", "--dim",   "4",   "--mi",     "2",  "--method",
                           "infonce,nwj", "--K",  "8,32,128",  "--steps", "150", "--device", "cpu"};
    const auto table = [&](const QString& program, const QStringList& before, const QString& name,
                           const QString& ompThreads, const QStringList& after = {}) {
      QProcess p;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.remove("OMP_NUM_THREADS");
      env.remove("MILAB_THREADS");
      if (!ompThreads.isEmpty()) env.insert("OMP_NUM_THREADS", ompThreads);
      p.setProcessEnvironment(env);
      p.start(program, before + grid + after + QStringList{"--out", tmp_.filePath(name)});
      p.waitForFinished(untilDoneMs());
      const QByteArray err = p.readAllStandardError();
      if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) qWarning("%s: %s", qPrintable(name), err.constData());
      return withoutSeconds(readAll(tmp_.filePath(name + "/grid.csv")));
    };
    const QByteArray plain = table(MILAB_CLI_PATH, {}, "digits-plain", {}, {"--jobs", "2"});
    QCOMPARE(plain.trimmed().count('\n'), 6);
    QCOMPARE(table(MILAB_CLI_PATH, {}, "digits-omp2", "2"), plain);
    QCOMPARE(table(MILAB_CLI_PATH, {}, "digits-omp1", "1"), plain);
    const QString taskset = QStandardPaths::findExecutable("taskset");
    if (taskset.isEmpty()) QFAIL("taskset not found (util-linux)");
    QCOMPARE(table(taskset, {"-c", "0", MILAB_CLI_PATH}, "digits-one-core", {}), plain);
    if (mpirun().isEmpty()) {
      if (qEnvironmentVariableIsSet("MILAB_REQUIRE_MPI")) QFAIL("mpirun not found, and MILAB_REQUIRE_MPI is set");
      QSKIP("mpirun not found: the plain, taskset and OMP_NUM_THREADS tables agreed");
    }
    QCOMPARE(table(mpirun(), {"--allow-run-as-root", "--oversubscribe", "-np", "2", MILAB_CLI_PATH}, "digits-mpi", {}),
             plain);
  }

  // One run under mpirun (or a grid under one rank) runs on rank 0 as without MPI.
  void mpiWithOneCellRunsOnRankZero() {
    if (mpirun().isEmpty()) QSKIP("mpirun not found");
    const QString out = tmp_.filePath("mpi-one"), plainOut = tmp_.filePath("plain-one");
    const QStringList run{"run", "--task", "gaussian2", "--method", "infonce", "--K", "8", "--steps", "50"};
    const CliResult one = launch(mpirun(), QStringList{"--allow-run-as-root", "--oversubscribe", "-np", "3",
                                                       MILAB_CLI_PATH} + run + QStringList{"--out", out});
    QVERIFY2(one.code == 0, qPrintable(one.err));
    // The same run without MPI reads the same numbers: rank 0 ran it alone, as a plain invocation would.
    const CliResult plain = launch(MILAB_CLI_PATH, run + QStringList{"--out", plainOut});
    QVERIFY2(plain.code == 0, qPrintable(plain.err));
    const QJsonObject a = QJsonDocument::fromJson(readAll(out + "/summary.json")).object();
    const QJsonObject b = QJsonDocument::fromJson(readAll(plainOut + "/summary.json")).object();
    QCOMPARE(a["status"].toString(), QString("finished"));
    QVERIFY(a["estimate"].isDouble());
    QCOMPARE(a["estimate"].toDouble(), b["estimate"].toDouble());
    QCOMPARE(a["stderr"].toDouble(), b["stderr"].toDouble());
    const QString grid = tmp_.filePath("mpi-np1");
    const CliResult single = launch(mpirun(), QStringList{"--allow-run-as-root", "-np", "1", MILAB_CLI_PATH} + kGrid +
                                                  QStringList{"--out", grid});
    QCOMPARE(single.code, 0);
    QCOMPARE(withoutSeconds(readAll(grid + "/grid.csv")), straight_);
  }
};

QTEST_GUILESS_MAIN(TestDistributed)
#include "test_distributed.moc"
