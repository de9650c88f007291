#pragma once
// Wall-clock limits in tests bound how promptly code polls cancel or answers a click, measured on an ordinary
// build. A sanitizer build (.ci/sanitize) runs every instrumented line several times slower, so there the same
// limits stretch by MILAB_TIME_SCALE (tests/CMakeLists.txt: 1, ASan 5, TSan 15); the ordinary build keeps them.
#include <QtGlobal>

#ifndef MILAB_TIME_SCALE
#define MILAB_TIME_SCALE 1
#endif

inline qint64 timeLimitMs(qint64 ms) { return ms * MILAB_TIME_SCALE; }
