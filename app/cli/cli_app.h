#pragma once
// milab-cli: `methods` and `run`. Exit codes: 0 done, 1 the run failed (its summary still written),
// 2 bad input (one line on stderr naming the field and what is allowed; nothing written), 130 interrupted
// by Ctrl-C (what it measured is written).

namespace milab {

int cliMain(int argc, char** argv);

}  // namespace milab
