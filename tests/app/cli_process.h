#pragma once
// milab-cli as a test runs it: a process, its exit code and output, and the files it wrote.
#include <signal.h>
#include <sys/types.h>

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

// How cli() runs milab-cli: a new process, unless the suite started a zygote (cli_zygote.h) and set this.
using CliRunner = CliResult (*)(const QStringList& args);
inline CliRunner& cliRunner() {
  static CliRunner runner = nullptr;
  return runner;
}

inline CliResult cli(const QStringList& args) { return cliRunner() ? cliRunner()(args) : launch(MILAB_CLI_PATH, args); }

// Sends `signal` to the child, and never to pid 0: QProcess reports 0 once the child has ended (a grid resumed
// from its finished cells can end before the kill meant to interrupt it), and kill(0, ...) signals the whole
// process group, the test, ctest and the CI shell with them. Returns whether a signal was sent.
inline bool signalChild(const QProcess& p, int signal) {
  const qint64 pid = p.processId();
  return pid > 0 && ::kill(static_cast<pid_t>(pid), signal) == 0;
}

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
