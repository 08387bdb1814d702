// Entry point of the `hashline` binary. Only wiring: the command line lives in lsp/cli/.
#include "lsp/cli/subcommands.h"

int main(int argc, char** argv) {
  return hashline::cli::runCli(argc, argv);
}
