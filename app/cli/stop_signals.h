#pragma once
// Ctrl-C (SIGINT), `timeout` (SIGTERM) and a closed terminal (SIGHUP) stop the runner's work the same way: runs are
// cancelled, what they measured is written, and the command exits with the shell's code for the signal (130, 143,
// 129). The handlers only record the signal; the work polls stopRequested(). A second signal exits at once with the
// same code (files are written atomically: each is whole or absent).
#include <atomic>

namespace milab {

constexpr int kInterrupted = 130;  // what the runners return when stopped; exitCode turns it into 128 + the signal

// Installs the handlers. Called before the out folder is claimed: once its lock exists, a signal is caught.
void catchStopSignals();
const std::atomic<bool>& stopRequested();
// How many stop signals arrived so far: work that begins after the first (a grid's closing figures) stops for one
// that comes while it runs (which, being a second, now ends the process).
int stopSignalsSoFar();
// `code`, or 128 + the last stop signal when `code` is kInterrupted.
int exitCode(int code);
// The code the process ends with, decided once its work is done: 128 + the last stop signal if one came at any
// moment before (even after the work's last look at stopRequested, e.g. while its summary was printed), else
// exitCode(code). A stop signal that comes after this call ends the process at once with 128 + the signal: a script
// that sent SIGTERM never reads 0.
int finalExitCode(int code);

}  // namespace milab
