#pragma once
// One parse of a subcommand's arguments: [POSITIONAL] [--key value | --key=value ...] and the flags that take no
// value (--help, --json, --long, --check). --out, --jobs, --db and --shard are the runner's own; every other key is an
// experiment key (a task, method or run parameter) or a filter, left for the command to check.
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace milab {

struct CommandLine {
  QString positional;  // the experiment file, or a run's id
  QString outDir, jobsText = "1", dbPath, shardText, unitsText = "nats";
  QVariantMap overrides;
  QSet<QString> flags;  // help, json, long, check
};

// Returns "" or the error line naming the key (a second positional in the words of `command`: a file, a run id).
QString parseCommandLine(const QString& command, const QStringList& args, CommandLine* cl);

// An error line as it is printed: a quoted value longer than 80 characters keeps its first 60 and says how long it
// was ('xxxx...' (200000 characters)), so one bad value never makes a 200 kB line.
QString withLongValuesCut(const QString& line);

}  // namespace milab
