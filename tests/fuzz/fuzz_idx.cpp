// libFuzzer target (clang's -fsanitize=fuzzer, built by .ci/sanitize fuzz): bytes through the gzipped IDX reader
// (data/idx_file.h) that Fashion-MNIST's files go through. The first byte picks the dimensions (1, 2 or 3), the
// rest is the file. A finding is a crash, a sanitizer report, or checkIdxBytes's complaint (a trap, so libFuzzer
// saves the input); inputs that once failed go to tests/fuzz/idx-corpus/, which test_idx_files replays.
#include <cstdio>

#include "idx_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const QByteArray gz(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
  const QString problem = milab::checkIdxBytes(gz, 1 + data[0] % 3);
  if (!problem.isEmpty()) {
    std::fprintf(stderr, "fuzz_idx: %s\n", qPrintable(problem));
    __builtin_trap();
  }
  return 0;
}
