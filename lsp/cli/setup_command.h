// `hashline setup AGENT [--project|--user] [--prefer-hashline] [--dry-run] [--undo]`: registers
// `hashline mcp` with an agent (setup_targets.h) by merging into its config files, idempotently;
// the first change of a file keeps its original as FILE.hashline-backup, and a manifest in
// `<state>/setup/` records what was added so `--undo` restores the file byte-exact when nobody
// changed it since, else removes only hashline's entries. `--dry-run` prints the unified diff.
// Exit codes: 0 done (or nothing to do), 1 a file could not be edited, 2 usage.
#pragma once

#include <string>
#include <vector>

namespace hashline::cli {

int runSetupCommand(std::vector<std::string> args);

} // namespace hashline::cli
