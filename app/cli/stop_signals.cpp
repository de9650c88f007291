#include "cli/stop_signals.h"

#include <csignal>
#include <initializer_list>

namespace milab {

namespace {
std::atomic<bool> requested{false};
std::atomic<int> lastSignal{SIGINT};
std::atomic<int> signalCount{0};

void onStopSignal(int signal) {  // lock-free atomics only: safe in a signal handler
  lastSignal.store(signal);
  signalCount.fetch_add(1);
  requested.store(true);
}
}  // namespace

void catchStopSignals() {
  for (int s : {SIGINT, SIGTERM, SIGHUP}) std::signal(s, onStopSignal);
}

const std::atomic<bool>& stopRequested() { return requested; }

int stopSignalsSoFar() { return signalCount.load(); }

int exitCode(int code) { return code == kInterrupted ? 128 + lastSignal.load() : code; }

}  // namespace milab
