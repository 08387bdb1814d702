// The lock file that announces hashline to Claude Code as its IDE (docs/claude-ide.md).
//
// Claude Code looks for IDEs in `$CLAUDE_CONFIG_DIR/ide/` (or `~/.claude/ide/` when the variable
// is unset): one `<port>.lock` per IDE, a JSON object {pid, workspaceFolders, ideName, transport,
// runningInWindows, authToken}. The token is what every WebSocket connection must present, so the
// directory is made 0700 and the file written 0600, atomically (temp + rename: a reader never sees
// half a token). The sidecar removes its file on exit; files of ours whose process is gone (a
// kill -9) are swept by the next sidecar. Other IDEs' lock files are never touched.
#pragma once

#include "engine/support/result.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hashline::lsp {

inline constexpr const char* kIdeName = "hashline";

struct IdeLockInfo {
  int port = 0;
  std::int64_t pid = 0;
  std::vector<std::string> workspace_folders;
  std::string auth_token;
};

/// `$CLAUDE_CONFIG_DIR/ide`, else `$HOME/.claude/ide`; empty when neither variable is set.
std::string claudeIdeDirectory();

nlohmann::json ideLockJSON(const IdeLockInfo& info);

/// Writes `<directory>/<port>.lock` (directory made 0700 if missing, file 0600); returns its path.
Result<std::string> writeIdeLockFile(const std::string& directory, const IdeLockInfo& info);

/// The lock files in `directory` that hashline wrote for a process that still runs (`port` from
/// the file name), in no particular order. Never the token of another IDE's file.
std::vector<IdeLockInfo> liveIdeLockFiles(const std::string& directory);

/// Removes the lock files in `directory` that hashline wrote (ideName "hashline") for a process
/// that no longer runs; returns how many.
std::size_t sweepStaleIdeLockFiles(const std::string& directory);

} // namespace hashline::lsp
