#pragma once
// milab-cli sample: the rows a finite-sample run reads (engine/sample_rows.h), written to a CSV or NPY file for
// another tool to read the same data.
#include "cli/command_line.h"

namespace milab {

int runSampleCommand(const CommandLine& cl);  // 0, or 2 with one line on stderr and nothing written

}  // namespace milab
