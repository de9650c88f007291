#include "cli/history_commands.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "params/plain_number.h"
#include "results/pending_rows.h"
#include "results/reading_words.h"
#include "results/run_store.h"

namespace milab {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

int fail(const QString& line) {
  std::fprintf(stderr, "milab-cli: %s\n", withLongValuesCut(line).toLocal8Bit().constData());
  return 2;
}

QString dbPathOf(const CommandLine& cl) { return cl.dbPath.isEmpty() ? defaultHistoryPath() : cl.dbPath; }

// history and show only read: a database that is not there is an error, never created (nor its folders, nor a
// journal beside a device such as /dev/null). Returns "" or the error line.
QString checkReadable(const QString& path) {
  const QFileInfo info(path);
  if (!info.exists())
    return QStringLiteral("db: no history at '%1' (no run was recorded there; --db names the file)").arg(path);
  if (!info.isFile()) return QStringLiteral("db: '%1' is not a history database (not a regular file)").arg(path);
  return {};
}

// Rows another program wrote, or a damaged file, are listed as far as they can be read and then said on stderr,
// with exit 1: a listing or `show` that exits 0 vouches for every row it printed (issue 79).
int damagedRows(const QList<StoredRun>& runs, const QString& path) {
  QStringList ids;
  QString first;
  for (const StoredRun& r : runs)
    if (!r.damaged.isEmpty()) {
      ids << QString::number(r.id);
      if (first.isEmpty()) first = QStringLiteral("run %1: %2").arg(r.id).arg(r.damaged.join(", "));
    }
  if (ids.isEmpty()) return 0;
  std::fprintf(stderr, "milab-cli: history: %s of '%s' could not be read whole (%s)\n",
               (ids.size() == 1 ? "run " + ids.first() : "runs " + ids.join(", ")).toUtf8().constData(),
               path.toLocal8Bit().constData(), first.toUtf8().constData());
  return 1;
}

}  // namespace

int runHistoryCommand(const CommandLine& cl) {
  if (!cl.positional.isEmpty()) return fail(QStringLiteral("history: takes no file, got '%1'").arg(cl.positional));
  HistoryFilter filter;
  for (auto it = cl.overrides.cbegin(); it != cl.overrides.cend(); ++it) {
    const QString value = it.value().toString();
    if (it.key() == "task")
      filter.task = value;
    else if (it.key() == "method")
      filter.method = value;
    else if (it.key() == "status") {
      if (!QStringList{"finished", "cancelled", "failed"}.contains(value))
        return fail(QStringLiteral("status: must be one of finished|cancelled|failed, got '%1'").arg(value));
      filter.status = value;
    } else if (it.key() == "limit") {
      const qint64 limit = plainInteger(value).value_or(0);
      filter.limit = int(std::min<qint64>(limit, 1 << 30));
      if (limit < 1) return fail(QStringLiteral("limit: must be an integer >= 1, got '%1'").arg(value));
    } else {
      return fail(QStringLiteral("%1: not an option of history (task, method, status, limit, json, db)").arg(it.key()));
    }
  }
  if (const QString e = checkReadable(dbPathOf(cl)); !e.isEmpty()) return fail(e);
  const RunStore store(dbPathOf(cl), RunStore::Access::ReadOnly);
  if (!store.error().isEmpty()) return fail(store.error());
  // A damaged file says so (exit 2), rather than listing the rows it can still read as if they were all.
  if (const QString damaged = store.check(); !damaged.isEmpty()) return fail(damaged);
  const QList<StoredRun> runs = store.list(filter);
  if (!store.error().isEmpty()) return fail(store.error());
  // Rows that could not be written wait in the spool (results/pending_rows.h); a reader only says so.
  if (const qsizetype waiting =
          QDir(pendingSpool(store.path())).entryList({"*.json"}, QDir::Files).size();
      waiting > 0)
    std::fprintf(stderr, "milab-cli: %lld run(s) wait in %s, not yet listed: they enter the history when a program "
                 "next writes to it\n", qlonglong(waiting), pendingSpool(store.path()).toLocal8Bit().constData());
  if (cl.flags.contains("json")) {
    QJsonArray a;
    for (const StoredRun& r : runs) a << storedRunJson(r);
    std::fputs(QJsonDocument(a).toJson(QJsonDocument::Indented).constData(), stdout);
    return damagedRows(runs, store.path());
  }
  std::printf("%-6s %-19s %-9s %-14s %-9s %-18s %-18s %-6s %-22s %8s  %-24s %s\n", "id", "ended", "task", "method",
              "status", "estimate (nats)", "interval", "p", "target", "steps", "ran in", "warning");
  for (const StoredRun& r : runs) {
    // The standard error where one was measured; a reading with none is its bare number (no "+- 0.0000").
    const auto amount = [](double nats) { return QString::number(nats, 'f', 4); };
    const QString estimate = r.estimate ? amount(*r.estimate) + spreadInWords(r.stderror.value_or(0), kNone, kNone,
                                                                              amount, QStringLiteral("+-"))
                             : r.damaged.isEmpty() ? QStringLiteral("-")
                                                   : QStringLiteral("damaged");
    // A finite set's interval over the data and its test of independence (summary.json's readings).
    const QJsonValue low = r.summary.value("ci_low"), high = r.summary.value("ci_high"), p = r.summary.value("p_value");
    const QString interval =
        low.isDouble() && high.isDouble()
            ? QStringLiteral("[%1, %2]").arg(low.toDouble(), 0, 'f', 3).arg(high.toDouble(), 0, 'f', 3)
            : QStringLiteral("-");
    const QString pValue = p.isDouble() ? QString::number(p.toDouble(), 'f', 3) : QStringLiteral("-");
    std::printf("%-6lld %-19s %-9s %-14s %-9s %-18s %-18s %-6s %-22s %8d  %-24s %s\n", r.id,
                r.ended.toString("yyyy-MM-dd hh:mm:ss").toUtf8().constData(), r.task.toUtf8().constData(),
                r.method.toUtf8().constData(), r.status.toUtf8().constData(), estimate.toUtf8().constData(),
                interval.toUtf8().constData(), pValue.toUtf8().constData(),
                (std::isnan(r.trueValue)
                     ? r.targetName + " unknown"
                     : QStringLiteral("%1 = %2").arg(r.targetName,
                                                     truthInWords(r.trueValue, r.summary.value("true_mi_stderr").toDouble(),
                                                                  [](double v) { return QString::number(v, 'f', 4); })))
                    .toUtf8()
                    .constData(),
                r.stepsDone, r.origin.toUtf8().constData(), r.summary.value("warning").toString().toUtf8().constData());
  }
  return damagedRows(runs, store.path());
}

int runShowCommand(const CommandLine& cl) {
  const qint64 id = plainInteger(cl.positional).value_or(0);
  if (id < 1)
    return fail(QStringLiteral("id: must be a run's id (see milab-cli history), got '%1'").arg(cl.positional));
  if (!cl.overrides.isEmpty())
    return fail(QStringLiteral("%1: not an option of show (db)").arg(cl.overrides.firstKey()));
  if (const QString e = checkReadable(dbPathOf(cl)); !e.isEmpty()) return fail(e);
  const RunStore store(dbPathOf(cl), RunStore::Access::ReadOnly);
  if (!store.error().isEmpty()) return fail(store.error());
  const std::optional<StoredRun> run = store.find(id);
  if (!store.error().isEmpty()) return fail(store.error());
  if (!run) return fail(QStringLiteral("id: no run %1 in %2").arg(id).arg(store.path()));
  std::fputs(QJsonDocument(storedRunJson(*run)).toJson(QJsonDocument::Indented).constData(), stdout);
  return damagedRows({*run}, store.path());
}

}  // namespace milab
