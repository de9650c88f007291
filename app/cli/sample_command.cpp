#include "cli/sample_command.h"

#include <cstdio>

#include "cli/sample_options.h"
#include "engine/sample_rows.h"

namespace milab {

int runSampleCommand(const CommandLine& cl) {
  SampleOptions o;
  QString err = SampleOptions::from(cl, &o);
  if (err.isEmpty()) err = exportSampleRows(o.task, o.taskParams, o.samples, o.seed, o.out);
  if (!err.isEmpty()) {
    std::fprintf(stderr, "milab-cli: %s\n", withLongValuesCut(err).toLocal8Bit().constData());
    return 2;
  }
  std::printf("wrote %lld rows of %s (seed %d) to %s\n", o.samples, o.task.toUtf8().constData(), o.seed,
              o.out.toUtf8().constData());
  return 0;
}

}  // namespace milab
