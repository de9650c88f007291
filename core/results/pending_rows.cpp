#include "results/pending_rows.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include "results/run_files.h"

namespace milab {

namespace {

// The key is a UUID or a folder's key file's text: either may name a file only once it is safe as a name.
QString fileNameOf(const QString& key) {
  QString name;
  for (const QChar c : key) name += (c.isLetterOrNumber() || c == '-') ? c : QChar('_');
  return name.left(80) + ".json";
}

QJsonObject readJson(const QString& path, QString* why) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    *why = f.errorString();
    return {};
  }
  QJsonParseError error{};
  const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
  if (!doc.isObject()) *why = error.error != QJsonParseError::NoError ? error.errorString() : "not a JSON object";
  return doc.object();
}

}  // namespace

QString pendingSpool(const QString& historyPath) { return QFileInfo(historyPath).absoluteFilePath() + ".pending"; }

QStringList keepPendingRow(const QString& historyPath, const HistoryRow& row, const QString& folder,
                           QStringList* errors) {
  QJsonObject record = historyRowJson(row);
  record["history"] = QFileInfo(historyPath).absoluteFilePath();
  if (!folder.isEmpty()) record["folder"] = QFileInfo(folder).absoluteFilePath();
  const QByteArray bytes = QJsonDocument(record).toJson(QJsonDocument::Compact);
  QStringList written;
  const QString spool = pendingSpool(historyPath);
  const QString places[] = {QDir().mkpath(spool) ? QDir(spool).filePath(fileNameOf(recordKeyOf(row))) : QString(),
                            folder.isEmpty() ? QString() : QDir(folder).filePath(kPendingRowFile)};
  if (places[0].isEmpty()) *errors << QStringLiteral("%1: cannot create the folder").arg(spool);
  for (const QString& path : places) {
    if (path.isEmpty()) continue;
    if (const QString error = saveAtomically(path, bytes); !error.isEmpty())
      *errors << error;
    else
      written << path;
  }
  return written;
}

QStringList importPendingRows(const QSqlDatabase& db, const QString& historyPath, QStringList* errors) {
  QStringList imported;
  const QDir spool(pendingSpool(historyPath));
  for (const QFileInfo& file : spool.entryInfoList({"*.json"}, QDir::Files, QDir::Name)) {
    QString why;
    const QJsonObject record = readJson(file.filePath(), &why);
    HistoryRow row;
    if (why.isEmpty()) why = historyRowOfJson(record, &row);
    if (why.isEmpty()) why = insertHistoryRow(db, row);
    if (!why.isEmpty()) {
      *errors << QStringLiteral("%1: not imported (%2)").arg(file.filePath(), why);
      continue;
    }
    imported << file.filePath();
  }
  return imported;
}

void removeImported(const QStringList& spoolFiles) {
  for (const QString& path : spoolFiles) {
    QString why;
    const QJsonObject record = readJson(path, &why);
    const QString folder = record.value("folder").toString();
    if (!folder.isEmpty()) {  // the copy beside the results, if it is still this row's
      const QString copy = QDir(folder).filePath(kPendingRowFile);
      HistoryRow mine, theirs;
      QString theirWhy;
      if (historyRowOfJson(record, &mine).isEmpty() && historyRowOfJson(readJson(copy, &theirWhy), &theirs).isEmpty() &&
          recordKeyOf(mine) == recordKeyOf(theirs))
        QFile::remove(copy);
    }
    QFile::remove(path);
    QDir().rmdir(QFileInfo(path).absolutePath());  // the spool goes with its last row (rmdir leaves a full one)
  }
}

}  // namespace milab
