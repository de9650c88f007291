#pragma once
// Claiming a results folder before any work starts, for milab-cli and the window alike: it exists (or is made), is
// writable (checked by writing, not by permission bits), and no other milab writes there (a lock file holding the
// writer's pid). An unwritable folder is then found before the first training step, not after the last.
#include <QLockFile>
#include <QString>
#include <memory>
#include <optional>

namespace milab {

// Who holds the milab lock file at `path` (another live process), waiting up to `waitMs` for it to be released; none
// when it is free (or was only stale). Used to check the other writers of a folder (shards, a whole grid).
struct LockHolder {
  qint64 pid = 0;
  QString host;
};
std::optional<LockHolder> lockHolder(const QString& path, int waitMs = 0);

// "" and *lock held (released when it is destroyed), or the error line naming `out`. Every writer of a folder checks
// the others: a whole grid, a single run, a sweep take the folder's main lock and refuse while a shard still writes
// there (a collect must not read cells being written); a shard (claimShardOfOutFolder) takes its own lock, since
// shards of one split write disjoint cells at once, and refuses beside the main lock or a shard of another split.
QString claimOutFolder(const QString& outDir, std::unique_ptr<QLockFile>* lock);
QString claimShardOfOutFolder(const QString& outDir, int shardIndex, int shardCount, std::unique_ptr<QLockFile>* lock);

}  // namespace milab
