#pragma once
// milab-cli history and show: the run history (results/run_store.h) read from the command line.
#include "cli/command_line.h"

namespace milab {

int runHistoryCommand(const CommandLine& cl);  // 0, or 2 with one line on stderr
int runShowCommand(const CommandLine& cl);

}  // namespace milab
