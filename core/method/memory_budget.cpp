#include "method/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <QFile>
#include <algorithm>

namespace milab {

namespace {

constexpr double kGiB = double(1 << 30);

// A cgroup's memory limit in bytes, or 0 when it has none: v2's memory.max ("max" when unlimited), else v1's
// memory.limit_in_bytes (a number near 2^63 when unlimited).
double cgroupLimit() {
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    QFile f(QString::fromLatin1(path));
    if (!f.open(QIODevice::ReadOnly)) continue;
    bool ok = false;
    const double v = f.readAll().trimmed().toDouble(&ok);
    if (ok && v > 0 && v < 1e18) return v;
  }
  return 0;
}

// What the process has taken of what RLIMIT_AS and RLIMIT_DATA count (/proc/self/statm: the total program size and
// its data plus stack, in pages); 0 where it cannot be read.
struct InUse {
  double addressSpace = 0, data = 0;
};
InUse inUse() {
  QFile f(QStringLiteral("/proc/self/statm"));
  if (!f.open(QIODevice::ReadOnly)) return {};
  const QList<QByteArray> fields = f.readAll().simplified().split(' ');
  if (fields.size() < 6) return {};
  const double page = double(sysconf(_SC_PAGE_SIZE));
  return {fields[0].toDouble() * page, fields[5].toDouble() * page};
}

double softLimit(int resource) {
  rlimit r{};
  if (getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 0;
  return double(r.rlim_cur);
}

}  // namespace

QString MemoryBudget::phrase() const {
  const QString amount = QString::number(bytes / kGiB, 'f', 1);
  return whose == QLatin1String("this machine's") ? QStringLiteral("this machine's %1 GiB").arg(amount)
                                                   : QStringLiteral("the %1 GiB of %2").arg(amount, whose);
}

MemoryBudget machineBudget(double bytes) { return {bytes, QStringLiteral("this machine's")}; }

MemoryBudget memoryBudget() {
  MemoryBudget b = machineBudget(double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE)));
  const auto tighter = [&](double limit, const char* whose) {
    if (limit > 0 && limit < b.bytes) b = {limit, QString::fromLatin1(whose)};
  };
  tighter(softLimit(RLIMIT_AS), "the process's address-space limit (ulimit -v)");
  tighter(softLimit(RLIMIT_DATA), "the process's data limit (ulimit -d)");
  tighter(cgroupLimit(), "its cgroup's memory.max");
  return b;
}

MemoryBudget limitLeft() {
  MemoryBudget left{-1, {}};
  const InUse taken = inUse();
  const auto tighter = [&](double limit, double used, const char* whose) {
    if (limit <= 0) return;
    const double room = std::max(0.0, limit - used);
    if (left.bytes < 0 || room < left.bytes) left = {room, QString::fromLatin1(whose)};
  };
  tighter(softLimit(RLIMIT_AS), taken.addressSpace, "the process's address-space limit (ulimit -v)");
  tighter(softLimit(RLIMIT_DATA), taken.data, "the process's data limit (ulimit -d)");
  return left;
}

}  // namespace milab
