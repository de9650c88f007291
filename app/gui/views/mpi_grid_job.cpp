#include "gui/views/mpi_grid_job.h"

#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include "engine/grid_scheduler.h"

namespace milab {

namespace {

QString cliBesideThisProgram() { return QDir(QCoreApplication::applicationDirPath()).filePath("milab-cli"); }

QString summaryPath(const QString& outDir, const GridCell& cell) { return cellDir(outDir, cell) + "/summary.json"; }

// The last non-empty line of mpirun's log: what a failed start or a refused grid said.
QString lastLogLine(const QString& path) {
  QFile log(path);
  if (!log.open(QIODevice::ReadOnly)) return {};
  const QStringList lines = QString::fromLocal8Bit(log.readAll()).split('\n', Qt::SkipEmptyParts);
  return lines.isEmpty() ? QString() : lines.last().trimmed();
}

}  // namespace

QString mpiUnavailableReason() {
#ifndef MILAB_HAVE_MPI
  return QStringLiteral("this build has no MPI (apt-get install libopenmpi-dev, then rebuild)");
#else
  if (QStandardPaths::findExecutable("mpirun").isEmpty())
    return QStringLiteral("mpirun is not on PATH (apt-get install openmpi-bin)");
  if (!QFileInfo(cliBesideThisProgram()).isExecutable())
    return QStringLiteral("milab-cli is not beside this program (%1)").arg(QCoreApplication::applicationDirPath());
  return {};
#endif
}

MpiGridJob::MpiGridJob(const QList<GridCell>& cells, const QString& experimentPath, const QVariantMap& overrides,
                       const QString& outDir, const QString& historyPath, const MpiLaunch& launch)
    : outDir_(outDir) {
  for (const GridCell& cell : cells) {
    CellResult c{cell, {}, false};
    c.reused = readFinishedCell(outDir, cell, &c.result);
    if (c.reused) reused_ << int(results_.size());
    seen_ << c.reused;
    // A cell that ended otherwise in an earlier run (failed, cancelled) is run again: only a summary written
    // after this moment is its new end.
    summaryTimes_ << QFileInfo(summaryPath(outDir, cell)).lastModified();
    results_ << c;
  }
  ended_ = int(reused_.size());

  QString file = experimentPath;
  if (file.startsWith(':')) {  // a bundled preset: milab-cli reads files
    file = QDir(outDir).filePath("grid-experiment.json");
    QFile::remove(file);
    QFile::copy(experimentPath, file);
    QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
  }
  QStringList args;
  if (geteuid() == 0) args << "--allow-run-as-root";  // Open MPI refuses root without it
  // Without a host file every process runs here; more processes than cores is what was asked for.
  if (launch.hostFile.isEmpty()) args << "--oversubscribe";
  args << "-np" << QString::number(launch.processes);
  if (!launch.hostFile.isEmpty()) args << "--hostfile" << launch.hostFile;
  args << cliBesideThisProgram() << "run" << QFileInfo(file).absoluteFilePath() << "--out"
       << QDir(outDir).absolutePath() << "--db" << QFileInfo(historyPath).absoluteFilePath();
  for (auto it = overrides.begin(); it != overrides.end(); ++it) args << "--" + it.key() << it.value().toString();
  process_.setProcessChannelMode(QProcess::MergedChannels);
  process_.setStandardOutputFile(QDir(outDir).filePath("mpirun.log"), QIODevice::Truncate);
  process_.start(QStandardPaths::findExecutable("mpirun"), args);
  sinceLook_.start();
}

MpiGridJob::~MpiGridJob() {
  if (process_.state() == QProcess::NotRunning) return;
  process_.terminate();
  if (!process_.waitForFinished(5000)) {
    process_.kill();
    process_.waitForFinished(2000);
  }
}

QList<int> MpiGridJob::poll() {
  QList<int> ended = reused_;
  reused_.clear();
  if (done_) return ended;
  if (process_.state() != QProcess::NotRunning) process_.waitForFinished(0);  // notices an exit without the event loop
  const bool over = process_.state() == QProcess::NotRunning;
  // mpirun kills its ranks a few seconds after SIGTERM; one that still runs after 15 s is killed.
  if (!over && cancelled_ && sinceCancel_.elapsed() > 15000) process_.kill();
  if (over || sinceLook_.elapsed() >= 250) {  // a look reads a file per pending cell: four times a second is enough
    ended << collectEnded();
    sinceLook_.restart();
  }
  if (over) finalise();
  return ended;
}

QList<int> MpiGridJob::collectEnded() {
  QList<int> ended;
  for (int i = 0; i < results_.size(); ++i) {
    if (seen_[i]) continue;
    const QString path = summaryPath(outDir_, results_[i].cell);
    if (QFileInfo(path).lastModified() == summaryTimes_[i]) continue;  // none yet, or an earlier run's
    RunResult r;
    if (!readEndedSummary(path, results_[i].cell.spec, &r)) continue;
    results_[i].result = r;
    seen_[i] = true;
    ++ended_;
    ended << i;
  }
  return ended;
}

void MpiGridJob::finalise() {
  done_ = true;
  if (process_.error() == QProcess::FailedToStart) {
    errors_ << QStringLiteral("mpi: mpirun did not start (%1)").arg(process_.errorString());
    return;
  }
  const bool normal = process_.exitStatus() == QProcess::NormalExit;
  // milab-cli ends a grid with 0, or 1 when some cell failed: either way it wrote grid.csv and the figures.
  exitedCleanly_ = normal && (process_.exitCode() == 0 || process_.exitCode() == 1);
  if (exitedCleanly_ || cancelled_) return;
  const QString said = lastLogLine(QDir(outDir_).filePath("mpirun.log"));
  errors_ << (normal ? QStringLiteral("mpi: mpirun ended with code %1").arg(process_.exitCode())
                     : QStringLiteral("mpi: mpirun was killed")) +
                 (said.isEmpty() ? QString() : QStringLiteral(": %1").arg(said)) +
                 QStringLiteral(" (its output: %1)").arg(QDir(outDir_).filePath("mpirun.log"));
}

void MpiGridJob::cancel() {
  if (cancelled_ || done_) return;
  cancelled_ = true;
  sinceCancel_.start();
  process_.terminate();  // SIGTERM: mpirun stops every rank; rank 0 writes what ended
}

}  // namespace milab
