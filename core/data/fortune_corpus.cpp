#include "data/fortune_corpus.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace milab {

QString fortunesDir() {
  const QString env = qEnvironmentVariable("MILAB_FORTUNES");
  return env.isEmpty() ? QStringLiteral("/usr/share/games/fortunes") : env;
}

QStringList fortuneTopics(const QString& dir) {
  QStringList topics;
  const QDir folder(dir);
  for (const QString& name : folder.entryList(QDir::Files, QDir::Name)) {
    if (name.contains('.')) continue;  // the .dat indexes and .u8 links
    if (QFileInfo::exists(folder.filePath(name + ".dat"))) topics << name;
  }
  return topics;
}

QString checkFortunes(const QString& dir) {
  if (!fortuneTopics(dir).isEmpty()) return {};
  return QStringLiteral(
             "corpus: the fortunes corpus was not found in '%1'; install it with 'sudo apt-get install fortunes', or "
             "point MILAB_FORTUNES at a folder of fortune files (each with its .dat index)")
      .arg(dir);
}

QString loadFortuneTopic(const QString& dir, const QString& topic, QStringList* texts) {
  QFile file(QDir(dir).filePath(topic));
  if (!file.open(QIODevice::ReadOnly))
    return QStringLiteral("corpus: cannot read '%1': %2").arg(file.fileName(), file.errorString());
  // strfile's format: texts separated by a line holding only "%" (the files are UTF-8 or plain ASCII).
  static const QRegularExpression separator(QStringLiteral("\\n%\\n"));
  const QString whole = QString::fromUtf8(file.readAll()).replace("\r\n", "\n");
  texts->clear();
  for (const QString& text : ("\n" + whole + "\n").split(separator)) {
    const QString trimmed = text.trimmed();
    if (!trimmed.isEmpty() && trimmed != "%") texts->push_back(trimmed);
  }
  return {};
}

}  // namespace milab
