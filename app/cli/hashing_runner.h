#pragma once
// `milab-cli hashing`: Fashion-MNIST hashing, the file's method (AMMI) against random-projection LSH, one row per (m,
// method) as it ends: OUT/hashing.csv (rewritten after each row), then OUT/summary.json and OUT/hashing.{png,pdf,svg}.
#include <QString>
#include <atomic>

namespace milab {

class MethodRegistry;
struct HashingSpec;

// Returns the CLI's exit code: 0, 1 (failed, e.g. the dataset is unreadable; rows so far are written), 130.
int runHashingCommand(const HashingSpec& spec, const MethodRegistry& registry, const QString& outDir,
                      const std::atomic<bool>& interrupted);

}  // namespace milab
