// Discovery: how the CLI and MCP find the `hashline lsp` sidecar that serves a path.
//
// Every sidecar with an agent socket writes `<runtime dir>/sidecar-<pid>.json` ({pid, roots,
// socket, version, started, editorPid, and the kernel start times of both processes}; 0600,
// written with lsp/disk's atomicWrite) and removes it when it exits cleanly (shutdown/exit,
// SIGTERM, its editor gone). A record left behind by a sidecar that died (SIGKILL, a crash, the
// OOM killer) says "this workspace had an editor's sidecar": while the editor that started it
// (initialize's processId, else the sidecar's parent) still runs, the record is kept and listed
// as Gone, so agents are refused SIDECAR_GONE instead of writing the disk behind its buffers.
// A Gone record is swept once its editor has exited, or once a live sidecar of the same editor
// replaces it (the editor restarted it). A record of a dead sidecar whose editor is unknown
// (older records) is swept at once. A pid counts as the recorded process only while its kernel
// start time matches (Linux /proc; elsewhere the pid alone), so a reused pid is not taken for it.
// Readers list, read and sweep the directory through one descriptor (lsp/disk: UniqueFd,
// directoryEntries, readFileBytesAt — never through a symlink). For a path, the record whose
// canonical root holds it wins; the deepest root wins when several do (a sidecar on ~/src/app
// beats one on ~/src), and at equal depth a Gone record wins over a live one (its editor may
// hold the file open).
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
  std::int64_t editor_pid = 0; // the editor that started it; 0 = unknown
  /// Kernel start times (clock ticks since boot) of `pid` and `editor_pid`, when known.
  std::optional<std::uint64_t> pid_start;
  std::optional<std::uint64_t> editor_start;
};

/// A discovery record: a running sidecar, or one that died while its editor still runs.
struct SidecarRecord {
  enum class State { Live, Gone } state = State::Live;
  SidecarInfo info;
  bool live() const { return state == State::Live; }
};

/// Writes (or rewrites) this process's discovery file; returns its path.
Result<std::string> publishSidecar(const SidecarInfo& info);
/// Removes a discovery file written by publishSidecar (missing is fine).
void withdrawSidecar(const std::string& discovery_file);

/// Every record of this user, live and Gone; records that no longer matter are removed on the way.
std::vector<SidecarRecord> sidecarRecords();
/// Every live sidecar of this user.
std::vector<SidecarInfo> liveSidecars();
/// The record serving canonical `real_path` (deepest root wins; Gone wins a tie), if any.
std::optional<SidecarRecord> findRecordFor(const std::string& real_path);
/// The live sidecar serving canonical `real_path` (deepest root wins), if any.
std::optional<SidecarInfo> findSidecarFor(const std::string& real_path);

/// True when process `pid` exists (signal 0 semantics; EPERM counts as alive).
bool processAlive(std::int64_t pid);
/// True when `pid` exists, is not a zombie and, when `start` is given and readable, started at
/// `start`.
bool processAlive(std::int64_t pid, std::optional<std::uint64_t> start);
/// The kernel start time of `pid` (Linux: /proc/PID/stat field 22), when it can be read.
std::optional<std::uint64_t> processStartTime(std::int64_t pid);

} // namespace hashline::agent
