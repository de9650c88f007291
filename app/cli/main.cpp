// milab-cli's entry point (cli/cli_app.h has the commands).
#include <QByteArray>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/cli_app.h"
#include "cli/stop_signals.h"

int main(int argc, char** argv) {
  int code = milab::cliMain(argc, argv);
  // Every command's output to stdout checked as a whole: a listing, `history --json` or `show` cut short by a full
  // disk or a closed pipe is an error, not exit 0 with part of it written (issue 80).
  errno = 0;
  const bool flushFailed = std::fflush(stdout) != 0;
  // The reason is the flush's own; a write that failed before it (a long help text) left errno to later calls.
  const QByteArray why = flushFailed ? QByteArray(" (") + std::strerror(errno) + ")" : QByteArray();
  if (flushFailed || std::ferror(stdout)) {
    std::fprintf(stderr, "milab-cli: stdout: the output could not be written whole%s\n", why.constData());
    if (code == 0) code = 1;
  }
  return milab::finalExitCode(code);
}
