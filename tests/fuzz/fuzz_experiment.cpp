// libFuzzer target (clang's -fsanitize=fuzzer, built by .ci/sanitize): experiment files through every reader
// the runner applies before training. A finding is a crash, a sanitizer report, or checkExperimentBytes'
// complaint (turned into a trap so libFuzzer saves the input). Every input that once failed goes to
// tests/fuzz/regressions/, which test_experiment_corpus replays in the ordinary build.
#include <QCoreApplication>
#include <cstdio>

#include "experiment_input.h"
#include "method/method_registry.h"

namespace {
const milab::MethodRegistry& registry() {
  static const milab::MethodRegistry* r = [] {
    static int argc = 1;
    static char name[] = "fuzz_experiment";
    static char* argv[] = {name, nullptr};
    new QCoreApplication(argc, argv);  // plugin paths are found beside the executable
    auto* loaded = new milab::MethodRegistry;
    loaded->loadDefault();
    return loaded;
  }();
  return *r;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<int>(size));
  const QString problem = milab::checkExperimentBytes(bytes, registry());
  if (!problem.isEmpty()) {
    std::fprintf(stderr, "fuzz_experiment: %s\n", qPrintable(problem));
    __builtin_trap();
  }
  return 0;
}
