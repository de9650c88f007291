// libFuzzer target (clang's -fsanitize=fuzzer, built by .ci/sanitize fuzz): a user's table file through the reader
// under every header mode. The first byte picks the file's kind (CSV, .npy, .npz: the reader goes by the
// extension), the rest is the file. A finding is a crash, a sanitizer report, or checkDataFile's complaint (turned
// into a trap so libFuzzer saves the input). Inputs that once failed go to tests/fuzz/data-corpus/ (with the
// extension the first byte chose), which test_data_corpus replays in the ordinary build.
#include <unistd.h>

#include <QFile>
#include <cstdio>

#include "data_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kSuffixes[] = {".csv", ".npy", ".npz"};
  const QString path = QStringLiteral("/tmp/fuzz_data_table-%1%2").arg(::getpid()).arg(kSuffixes[data[0] % 3]);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return 0;
  file.write(reinterpret_cast<const char*>(data + 1), qint64(size - 1));
  file.close();
  const QString problem = milab::checkDataFile(path);
  QFile::remove(path);
  if (!problem.isEmpty()) {
    std::fprintf(stderr, "fuzz_data_table: %s\n", qPrintable(problem));
    __builtin_trap();
  }
  return 0;
}
