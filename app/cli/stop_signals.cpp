#include "cli/stop_signals.h"

#include <unistd.h>

#include <csignal>
#include <initializer_list>

namespace milab {

namespace {
std::atomic<bool> requested{false};
std::atomic<int> lastSignal{SIGINT};
std::atomic<int> signalCount{0};
std::atomic<bool> exiting{false};  // the exit code is decided: nothing is left to write

void onStopSignal(int signal) {  // lock-free atomics and _exit only: safe in a signal handler
  lastSignal.store(signal);
  // The second signal does not wait for a long step or the final writes: every file is written atomically and the
  // history in one transaction, so what is on disk is whole (or absent), never cut. Once the exit code is decided
  // (finalExitCode) the first one ends the process too. The count is raised before `exiting` is read, and
  // finalExitCode sets `exiting` before it reads the count (sequentially consistent atomics), so a signal is
  // either seen there or ends the process here: none is lost between the two.
  const bool second = signalCount.fetch_add(1) >= 1;
  if (second || exiting.load()) {
    // Said, so that the exit code is never unexplained (issue 80: a late signal left no line at all).
    static const char kSecond[] = "milab-cli: stopped at once by a second signal\n";
    static const char kLate[] = "milab-cli: stopped by a signal after its work was done: everything was written\n";
    [[maybe_unused]] const ssize_t n =
        second ? ::write(STDERR_FILENO, kSecond, sizeof kSecond - 1) : ::write(STDERR_FILENO, kLate, sizeof kLate - 1);
    ::_exit(128 + signal);
  }
  requested.store(true);
  static const char kSaid[] = "milab-cli: stopping: what was measured is being written; a second signal exits at once\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kSaid, sizeof kSaid - 1);  // write(2): signal-safe
}
}  // namespace

void catchStopSignals() {
  for (int s : {SIGINT, SIGTERM, SIGHUP}) std::signal(s, onStopSignal);
}

const std::atomic<bool>& stopRequested() { return requested; }

int stopSignalsSoFar() { return signalCount.load(); }

int exitCode(int code) { return code == kInterrupted ? 128 + lastSignal.load() : code; }

int finalExitCode(int code) {
  exiting.store(true);
  return signalCount.load() > 0 ? 128 + lastSignal.load() : exitCode(code);
}

}  // namespace milab
