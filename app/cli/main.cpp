// milab-cli's entry point (cli/cli_app.h has the commands).
#include "cli/cli_app.h"
#include "cli/stop_signals.h"

int main(int argc, char** argv) { return milab::finalExitCode(milab::cliMain(argc, argv)); }
