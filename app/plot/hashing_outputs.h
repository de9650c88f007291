#pragma once
// The hashing experiment's files, the same from the window and the runner: OUT/hashing.csv, OUT/summary.json
// and OUT/hashing.{png,pdf,svg}.
#include <QString>
#include <QStringList>

#include "hashing/hashing_experiment.h"

namespace milab {

QStringList writeHashingOutputs(const QString& outDir, const HashingSpec& spec,
                                const HashingResult& result);  // error lines, or none

}  // namespace milab
