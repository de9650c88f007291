#pragma once
// milab-cli's own main, run in a fork of a process that loaded it once. A milab-cli process spends about 0.7 s of
// its start loading LibTorch's 300 libraries and running their static initialisers; test_cli starts about a hundred.
// start(), called first thing in a suite's main, forks a server (the "zygote") while the suite is still a single
// thread with no QCoreApplication; each request forks the zygote again, and that child runs
// finalExitCode(cliMain(argc, argv)) as app/cli/main.cpp does, with the request's arguments, environment and working
// folder, its output in files, its exit code or signal reported back; it ends with _exit, skipping the static
// destructors (cli_zygote.cpp says why). test_cli's tests that signal, kill or race milab-cli, test_docs,
// test_install and the other suites still start the real program, exit path included. What a library reads from the
// environment as it loads (libgomp's OMP_NUM_THREADS) keeps the suite's value at its start: a test that varies such a
// variable starts the program (test_distributed's sameDigitsWhateverTheCoresAffinityOrOpenMp does).
#include <QStringList>

#include "cli_process.h"

namespace cli_zygote {

// Forks the zygote and points cli() at it. Returns false, leaving cli() on QProcess, when the process already runs
// more than one thread (a fork would copy locks another thread holds) or under ThreadSanitizer.
bool start();

// milab-cli with `args` in a child of the zygote; as launch(): code -1 when it crashed or did not end in time.
CliResult run(const QStringList& args);

}  // namespace cli_zygote
