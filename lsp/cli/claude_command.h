// `hashline claude [--print-env] [--] [CLAUDE ARGS...]`: starts Claude Code in this workspace
// already pointed at the Claude IDE server of the hashline sidecar that serves it
// (docs/claude-ide.md), so no `/ide` step is needed: it finds hashline's live lock file in
// Claude Code's IDE directory whose workspace folder holds the current directory (the deepest
// one), then runs `claude` with CLAUDE_CODE_SSE_PORT=<port> and ENABLE_IDE_INTEGRATION=true.
// `--print-env` prints those as shell exports instead. Exit 1 with a hint when no sidecar of
// this workspace serves the IDE protocol; 127 when `claude` is not on PATH.
//
// Threading: blocking, the main thread; replaces the process with `claude` (execvp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hashline::cli {

int runClaudeCommand(std::vector<std::string> args);

/// The port of the live hashline IDE server whose workspace folder holds `directory` (the
/// deepest folder wins), from the lock files in `ide_directory`.
std::optional<int> ideServerPortFor(const std::string& ide_directory, const std::string& directory);

} // namespace hashline::cli
