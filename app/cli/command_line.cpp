#include "cli/command_line.h"

namespace milab {

namespace {
const QSet<QString> kValueless{"help", "json", "long"};
}

QString parseCommandLine(const QStringList& args, CommandLine* cl) {
  for (int i = 0; i < args.size(); ++i) {
    const QString& a = args[i];
    if (a == "-h") {
      cl->flags << "help";
      continue;
    }
    if (!a.startsWith("--")) {
      if (!cl->positional.isEmpty()) return QStringLiteral("experiment: only one file allowed, got '%1'").arg(a);
      cl->positional = a;
      continue;
    }
    QString key = a.mid(2), value;
    if (kValueless.contains(key)) {
      cl->flags << key;
      continue;
    }
    if (key.contains('=')) {
      value = key.section('=', 1);
      key = key.section('=', 0, 0);
    } else {
      if (i + 1 >= args.size()) return QStringLiteral("%1: needs a value").arg(key);
      value = args[++i];
    }
    key.replace('-', '_');  // --eval-batches and --eval_batches alike
    if (key == "out")
      cl->outDir = value;
    else if (key == "jobs")
      cl->jobsText = value;
    else if (key == "db")
      cl->dbPath = value;
    else
      cl->overrides.insert(key, value);
  }
  return {};
}

}  // namespace milab
