#pragma once
// What the runner does with an experiment file's bytes before training anything, as one call: parse, expand the
// grid and validate every cell's run spec with every method's plugin, and read it as a prior-order sweep and as
// a hashing experiment. Shared by the libFuzzer target (fuzz_experiment) and the corpus regression test.
#include <QByteArray>
#include <QString>

namespace milab {

class MethodRegistry;

// "" when the bytes went through every reader as the contract says, else what broke it: an error line that is
// not one line, or a grid whose cells do not fit the limits. Crashes, leaks and UB are the sanitizers' to report.
QString checkExperimentBytes(const QByteArray& bytes, const MethodRegistry& registry);

}  // namespace milab
