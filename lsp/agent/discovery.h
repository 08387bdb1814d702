// Discovery: how the CLI and MCP find the `hashline lsp` sidecar that serves a path.
//
// Every sidecar with an agent socket writes `<runtime dir>/sidecar-<pid>.json`
// ({pid, roots, socket, version, started}; 0600, written with lsp/disk's atomicWrite) and
// removes it on exit. Readers list, read and sweep the directory through one descriptor
// (lsp/disk: UniqueFd, directoryEntries, readFileBytesAt — never through a symlink), ignoring —
// and sweeping — files whose pid is dead, so a crashed sidecar never captures later CLI runs.
// For a path, the sidecar whose canonical root holds it wins; the deepest root wins when several
// do (a sidecar on ~/src/app beats one on ~/src).
//
// Threading: stateless; safe from any thread. The runtime directory comes from
// lsp/disk/state_dir.h (HASHLINE_RUNTIME_DIR in tests).
#pragma once

#include "engine/support/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hashline::agent {

struct SidecarInfo {
  std::int64_t pid = 0;
  std::vector<std::string> roots; // canonical directories
  std::string socket;             // absolute path of the agent socket
  std::string version;
  std::string started; // ISO-8601 UTC
  std::string discovery_file;
};

/// Writes (or rewrites) this process's discovery file; returns its path.
Result<std::string> publishSidecar(const SidecarInfo& info);
/// Removes a discovery file written by publishSidecar (missing is fine).
void withdrawSidecar(const std::string& discovery_file);

/// Every live sidecar of this user; dead ones' files are removed on the way.
std::vector<SidecarInfo> liveSidecars();
/// The live sidecar serving canonical `real_path` (deepest root wins), if any.
std::optional<SidecarInfo> findSidecarFor(const std::string& real_path);

/// True when process `pid` exists (signal 0 semantics; EPERM counts as alive).
bool processAlive(std::int64_t pid);

} // namespace hashline::agent
