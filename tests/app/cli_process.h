#pragma once
// milab-cli as a test runs it: a process, its exit code and output, and the files it wrote.
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include "time_limits.h"

struct CliResult {
  int code = -1;  // -1 when it crashed or did not end
  QString out, err;
};

inline CliResult launch(const QString& program, const QStringList& args) {
  QProcess p;
  p.start(program, args);
  p.waitForFinished(untilDoneMs());
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromLocal8Bit(p.readAllStandardOutput()),
          QString::fromLocal8Bit(p.readAllStandardError())};
}

inline CliResult cli(const QStringList& args) { return launch(MILAB_CLI_PATH, args); }

inline QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// grid.csv without its `seconds` column: what two runs of the same grid must share.
inline QByteArray withoutSeconds(const QByteArray& csv) {
  QList<QByteArray> lines = csv.split('\n');
  const int column = int(lines.value(0).split(',').indexOf("seconds"));
  for (QByteArray& line : lines) {
    QList<QByteArray> fields = line.split(',');
    if (column >= 0 && column < fields.size()) fields.removeAt(column);
    line = fields.join(',');
  }
  return lines.join('\n');
}
