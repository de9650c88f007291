#pragma once
// The settings of `milab-cli sample`, read from its command line in one place: the task and its keys, N, the seed
// and the file to write.
#include <QString>

#include "cli/command_line.h"
#include "params/param_spec.h"

namespace milab {

struct SampleOptions {
  QString task;
  ParamMap taskParams;  // validated, defaults filled
  qint64 samples = 0;
  int seed = 1;
  QString out;
  // "" or one line naming the key and what it takes.
  static QString from(const CommandLine& cl, SampleOptions* out);
};

}  // namespace milab
