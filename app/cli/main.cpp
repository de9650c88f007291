// milab-cli's entry point (cli/cli_app.h has the commands).
#include "cli/cli_app.h"

int main(int argc, char** argv) { return milab::cliMain(argc, argv); }
