// The `hashline` command line: global flags and the table of subcommands.
//
// main.cpp calls `runCli`. Each subcommand is one entry in the table in subcommands.cpp — a
// name, a one-line summary for `hashline --help`, and a `run(args)` function in its own file
// (lsp_command.cpp for `hashline lsp`). Adding `read`, `edit`, `status`, `mcp` ... is one line
// there plus the new file. Exit codes: 0 ok, 1 refused/failed, 2 usage.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hashline::cli {

struct Subcommand {
  std::string_view name;
  std::string_view summary;
  int (*run)(std::vector<std::string> args); // args after the subcommand name
};

/// The registered subcommands, in --help order.
const std::vector<Subcommand>& subcommands();

int runCli(int argc, char** argv);

} // namespace hashline::cli
