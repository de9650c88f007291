#include "cli/command_line.h"

#include <QHash>
#include <QRegularExpression>

namespace milab {

namespace {
const QSet<QString> kValueless{"help", "json", "long", "check"};

// A value as a message quotes it: control characters written out, so an error stays one readable line.
QString quoted(const QString& v) {
  QString out;
  for (const QChar c : v)
    out += c.unicode() < 0x20 || c.unicode() == 0x7f ? QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QChar('0'))
                                                       : QString(c);
  return "'" + out + "'";
}

// Control characters (a TAB, a newline, a NUL) have no place in a key or a value; a byte that is not UTF-8
// turns into U+FFFD when Qt decodes the argument, and a path with it would name another folder.
QString checkText(const QString& key, const QString& value) {
  for (const QChar c : value) {
    if (c.unicode() < 0x20 || c.unicode() == 0x7f)
      return QStringLiteral("%1: control character U+%2 in %3")
          .arg(key.isEmpty() ? QStringLiteral("argument") : key)
          .arg(c.unicode(), 4, 16, QChar('0'))
          .arg(quoted(value));
    if (c == QChar::ReplacementCharacter)
      return QStringLiteral("%1: not valid UTF-8: %2").arg(key.isEmpty() ? QStringLiteral("argument") : key,
                                                          quoted(value));
  }
  return {};
}
}  // namespace

QString parseCommandLine(const QString& command, const QStringList& args, CommandLine* cl) {
  QHash<QString, QString> given;  // each flag's value, by its key
  for (int i = 0; i < args.size(); ++i) {
    const QString& a = args[i];
    if (a == "-h") {
      cl->flags << "help";
      continue;
    }
    if (const QString err = checkText({}, a); !err.isEmpty()) return err;
    if (a.startsWith('-') && !a.startsWith("--") && a.size() > 1 && !a.at(1).isDigit())
      return QStringLiteral("%1: flags take two dashes (-%1)").arg(a);
    if (!a.startsWith("--")) {
      if (!cl->positional.isEmpty() && command == "show")
        return QStringLiteral("id: show takes one run id, got %1 after %2").arg(quoted(a), quoted(cl->positional));
      if (!cl->positional.isEmpty())
        return QStringLiteral("experiment: only one file allowed, got %1 after %2").arg(quoted(a), quoted(cl->positional));
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
      // "--dim --mi 2": the value of --dim is missing, not "--mi".
      if (value.startsWith("--")) return QStringLiteral("%1: needs a value, got the flag %2").arg(key, value);
    }
    if (key.isEmpty()) return QStringLiteral("a flag needs a name before its value: %1").arg(quoted(a));
    if (const QString err = checkText(key, value); !err.isEmpty()) return err;
    key.replace('-', '_');  // --eval-batches and --eval_batches alike
    // A flag given twice is a typo or a script's two intentions: neither is guessed (the last one won before).
    if (given.contains(key))
      return QStringLiteral("%1: given twice (%2, then %3); give it once, or a comma list for a sweep")
          .arg(key, quoted(given.value(key)), quoted(value));
    given.insert(key, value);
    if (key == "out")
      cl->outDir = value;
    else if (key == "jobs")
      cl->jobsText = value;
    else if (key == "db")
      cl->dbPath = value;
    else if (key == "shard")
      cl->shardText = value;
    else if (key == "units")
      cl->unitsText = value;
    else
      cl->overrides.insert(key, value);
  }
  return {};
}

QString withLongValuesCut(const QString& line) {
  // A value's quotes open after a space, '(' or '=' and close before a space, punctuation or the end: the
  // apostrophe of "machine's" opens nothing.
  static const QRegularExpression longQuoted(QStringLiteral("(?<=^|[\\s(=])'([^'\n]{81,})'(?=$|[\\s,;:.)])"));
  QString out = line;
  for (QRegularExpressionMatchIterator it = longQuoted.globalMatch(line); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    out.replace(m.captured(0),
                QStringLiteral("'%1...' (%2 characters)").arg(m.captured(1).left(60)).arg(m.captured(1).size()));
  }
  return out;
}

}  // namespace milab
