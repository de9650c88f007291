#include "results/out_folder.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>

namespace milab {

QString claimOutFolder(const QString& outDir, std::unique_ptr<QLockFile>* lock, const QString& lockName) {
  if (outDir.isEmpty()) return "out: required, the folder for the results (--out DIR)";
  if (QFileInfo(outDir).exists() && !QFileInfo(outDir).isDir())
    return QStringLiteral("out: '%1' exists and is not a folder").arg(outDir);
  if (!QDir().mkpath(outDir)) return QStringLiteral("out: cannot create folder '%1'").arg(outDir);
  {
    QTemporaryFile probe(QDir(outDir).filePath(".milab-write-test-XXXXXX"));
    if (!probe.open()) return QStringLiteral("out: cannot write in '%1' (%2)").arg(outDir, probe.errorString());
  }
  *lock = std::make_unique<QLockFile>(QDir(outDir).filePath(lockName));
  (*lock)->setStaleLockTime(0);  // a lock is stale only when its process is gone, however long a grid runs
  if (!(*lock)->tryLock(0)) {
    qint64 pid = 0;
    QString host, app;
    (*lock)->getLockInfo(&pid, &host, &app);
    lock->reset();
    return QStringLiteral(
               "out: '%1' is in use by pid %2 (another milab writing there); wait for it or "
               "choose another folder")
        .arg(outDir)
        .arg(pid);
  }
  return {};
}

}  // namespace milab
