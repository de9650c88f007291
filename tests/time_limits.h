#pragma once
// Wall-clock limits in tests bound how promptly code polls cancel or answers a click, measured on an ordinary
// build. A sanitizer build (.ci/sanitize) runs every instrumented line several times slower, so there the same
// limits stretch by MILAB_TIME_SCALE (tests/CMakeLists.txt: 1, ASan 5, TSan 15); the ordinary build keeps them.
#include <QtGlobal>

#ifndef MILAB_TIME_SCALE
#define MILAB_TIME_SCALE 1
#endif

inline qint64 timeLimitMs(qint64 ms) { return ms * MILAB_TIME_SCALE; }

// How long a test waits for work that ends by itself (a run that finishes, a first step, a folder that appears):
// no bound of the test's own, since a slower machine only takes longer. The wait lasts the suite's whole CTest
// limit (tests/CMakeLists.txt passes it as QTEST_FUNCTION_TIMEOUT), so a hang still ends, as CTest's timeout.
// Only the time from a cancel or a click to its effect is bounded (timeLimitMs).
inline int untilDoneMs() {
  const int suiteLimitMs = qEnvironmentVariableIntValue("QTEST_FUNCTION_TIMEOUT");
  return suiteLimitMs > 0 ? suiteLimitMs : 900000 * MILAB_TIME_SCALE;  // the default CTest limit
}

// ThreadSanitizer (clang 14) aborts in the child of the clone(CLONE_VM | CLONE_VFORK) with which Qt 6.4's QProcess
// starts programs ("CHECK failed ... ForkAfter"): a TSan build skips the rest of a test that needs a child process
// (.ci/sanitize runs milab-cli itself under TSan instead). Every other build runs it.
#ifdef MILAB_TSAN
#define MILAB_SKIP_CHILD_PROCESSES_UNDER_TSAN() \
  QSKIP("QProcess cannot start a child under ThreadSanitizer (clang 14); .ci/sanitize runs milab-cli itself")
#else
#define MILAB_SKIP_CHILD_PROCESSES_UNDER_TSAN()
#endif
