#include "results/out_folder.h"

#include <unistd.h>

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <cerrno>
#include <cstring>

namespace milab {

namespace {

// One page written through the descriptor itself: Qt's buffered flush loses the errno ("Unknown error").
// Returns "" or the system's words for why the write failed.
QString writeProbe(int fd) {
  const QByteArray page(4096, '\n');
  for (qsizetype at = 0; at < page.size();) {
    const ssize_t n = ::write(fd, page.constData() + at, size_t(page.size() - at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return QString::fromLocal8Bit(std::strerror(n < 0 ? errno : EIO));
    at += n;
  }
  return {};
}

// The collect (a grid run without --shard) must not read cells a shard is still writing.
QString shardStillRunning(const QString& outDir) {
  for (const QFileInfo& f : QDir(outDir).entryInfoList({".milab-shard-*.lock"}, QDir::Files | QDir::Hidden)) {
    const std::optional<LockHolder> shard = lockHolder(f.absoluteFilePath());
    if (!shard) continue;  // that shard ended
    return QStringLiteral(
               "out: a shard (pid %1 on %2) is still writing in '%3'; wait for it (collect once every "
               "shard has ended; if it is gone, delete %4)")
        .arg(shard->pid)
        .arg(shard->host, outDir, f.absoluteFilePath());
  }
  return {};
}

// A shard writes only beside shards of the same split: never where a whole grid or a single run writes (the folder's
// main lock, waited for briefly since another shard starting takes it for an instant), nor beside a shard of
// another N, whose cells overlap its own.
QString otherWriterBesideShard(const QString& outDir, int shardCount) {
  if (const std::optional<LockHolder> main = lockHolder(QDir(outDir).filePath(".milab.lock"), 2000))
    return QStringLiteral(
               "out: '%1' is in use by pid %2 (a whole grid or a run writing there); a shard writes only "
               "beside the other shards of its grid")
        .arg(outDir)
        .arg(main->pid);
  static const QRegularExpression shardLock(QStringLiteral("^\\.milab-shard-(\\d+)-of-(\\d+)\\.lock$"));
  for (const QFileInfo& f : QDir(outDir).entryInfoList({".milab-shard-*.lock"}, QDir::Files | QDir::Hidden)) {
    const QRegularExpressionMatch m = shardLock.match(f.fileName());
    // Shards of this split write their own cells; a lock no process holds is a shard that ended.
    if (!m.hasMatch() || m.captured(2).toInt() == shardCount || !lockHolder(f.absoluteFilePath())) continue;
    return QStringLiteral(
               "out: shard %1/%2 of another split is writing in '%3'; the shards of one grid share N "
               "(here %4)")
        .arg(m.captured(1), m.captured(2), outDir)
        .arg(shardCount);
  }
  return {};
}

// A lock file that names no owner (empty or unreadable: a crash between creating it and writing it, or a file made by
// hand) blocks its folder for good, as "pid 0", since no process can ever release it (issue 80): it is removed once it
// is older than the moment QLockFile takes between creating a lock file and writing its pid into it.
void removeOwnerlessLock(const QString& path) {
  const QFileInfo info(path);
  if (!info.exists() || info.lastModified().secsTo(QDateTime::currentDateTime()) < 10) return;
  qint64 pid = 0;
  QString host, app;
  if (!QLockFile(path).getLockInfo(&pid, &host, &app) || pid <= 0) QFile::remove(path);
}

// A folder link planted where results go: `cells` or one cell's folder linked elsewhere would take a grid's files
// outside the results folder (issue 80's probe: a link named cells received seed-1/ and seed-2/). A planted file link
// is replaced by the file (run_files.cpp); a folder link is refused, naming it. "" when there is none.
QString plantedFolderLink(const QString& outDir) {
  const QFileInfo cells(QDir(outDir).filePath("cells"));
  QString link;
  if (cells.isSymLink()) {
    link = cells.filePath();
  } else if (cells.isDir()) {
    const QDir::Filters all = QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System | QDir::Hidden;
    for (const QFileInfo& cell : QDir(cells.filePath()).entryInfoList(all))
      if (cell.isSymLink()) {
        link = cell.filePath();
        break;
      }
  }
  if (link.isEmpty()) return {};
  return QStringLiteral("out: '%1' is a link (to '%2'); results are written only inside the results folder, which "
                        "follows no link: remove it")
      .arg(link, QFileInfo(link).symLinkTarget());
}

}  // namespace

std::optional<LockHolder> lockHolder(const QString& path, int waitMs) {
  removeOwnerlessLock(path);
  QLockFile lock(path);
  lock.setStaleLockTime(0);  // a lock is stale only when its process is gone
  if (lock.tryLock(waitMs)) return std::nullopt;  // free: released as `lock` goes out of scope
  LockHolder holder;
  QString app;
  lock.getLockInfo(&holder.pid, &holder.host, &app);
  return holder;
}

namespace {

QString claimWithLock(const QString& outDir, std::unique_ptr<QLockFile>* lock, const QString& lockName) {
  if (outDir.isEmpty()) return "out: required, the folder for the results (--out DIR)";
  if (QFileInfo(outDir).exists() && !QFileInfo(outDir).isDir())
    return QStringLiteral("out: '%1' exists and is not a folder").arg(outDir);
  const bool existed = QFileInfo(outDir).isDir();
  if (!QDir().mkpath(outDir)) return QStringLiteral("out: cannot create folder '%1'").arg(outDir);
  // A refusal leaves no trace: a folder made here for nothing is removed (rmdir: only while it is empty).
  const auto refuse = [&](const QString& error) {
    if (!existed) QDir().rmdir(outDir);
    return error;
  };
  {
    // Written to, not only created: on a full disk creating an empty file still succeeds.
    QTemporaryFile probe(QDir(outDir).filePath(".milab-write-test-XXXXXX"));
    if (!probe.open()) return refuse(QStringLiteral("out: cannot write in '%1' (%2)").arg(outDir, probe.errorString()));
    if (const QString why = writeProbe(probe.handle()); !why.isEmpty())
      return refuse(QStringLiteral("out: cannot write in '%1' (%2)").arg(outDir, why));
  }
  if (const QString link = plantedFolderLink(outDir); !link.isEmpty()) return refuse(link);
  removeOwnerlessLock(QDir(outDir).filePath(lockName));
  *lock = std::make_unique<QLockFile>(QDir(outDir).filePath(lockName));
  (*lock)->setStaleLockTime(0);  // a lock is stale only when its process is gone, however long a grid runs
  if (!(*lock)->tryLock(0)) {
    if ((*lock)->error() != QLockFile::LockFailedError) {  // not held by another: the file could not be written
      lock->reset();   // (QLockFile gives no errno; the probe above just wrote, so space or permission ran out)
      return refuse(QStringLiteral("out: cannot write the lock file '%1' (no space left on the device, or not "
                                   "writable)")
                        .arg(QDir(outDir).filePath(lockName)));
    }
    qint64 pid = 0;
    QString host, app;
    (*lock)->getLockInfo(&pid, &host, &app);
    lock->reset();
    if (pid <= 0)  // a lock file younger than removeOwnerlessLock's wait that names no owner (yet)
      return QStringLiteral(
                 "out: '%1' has a lock file that names no owner (%2, written in the last 10 s): another milab may "
                 "be starting there; if none is, delete it, or wait 10 s and run again")
          .arg(outDir, QDir(outDir).filePath(lockName));
    return QStringLiteral(
               "out: '%1' is in use by pid %2 (another milab writing there); wait for it or "
               "choose another folder")
        .arg(outDir)
        .arg(pid);
  }
  return {};
}

}  // namespace

QString claimOutFolder(const QString& outDir, std::unique_ptr<QLockFile>* lock) {
  QString err = claimWithLock(outDir, lock, QStringLiteral(".milab.lock"));
  if (err.isEmpty()) err = shardStillRunning(outDir);
  if (!err.isEmpty()) lock->reset();
  return err;
}

QString claimShardOfOutFolder(const QString& outDir, int shardIndex, int shardCount, std::unique_ptr<QLockFile>* lock) {
  QString err =
      claimWithLock(outDir, lock, QStringLiteral(".milab-shard-%1-of-%2.lock").arg(shardIndex).arg(shardCount));
  if (err.isEmpty()) err = otherWriterBesideShard(outDir, shardCount);
  if (!err.isEmpty()) lock->reset();
  return err;
}

}  // namespace milab
