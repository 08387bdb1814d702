// FileBridge: hashline's answers to an ACP agent's fs/read_text_file and fs/write_text_file.
//
// Both go through the AgentRouter (lsp/agent/agent_router.h), like the CLI and MCP: to the
// editor's running `hashline lsp` whose workspace holds the file (the live buffer, unsaved text
// included), else to the disk in-process, confined to the session's workspace.
// - read: the whole file is read under the ACP session (`session` = the ACP sessionId, `agent`
//   = the agent's name), so hashline records it as that session's read; the agent gets the
//   line/limit window it asked for. The proxy keeps the lines as the agent's view of the file.
// - write: never a whole-buffer replace. The file is read again now, and the change between the
//   agent's view and the new content is merged with whatever changed since (write_plan.h); the
//   agent's hunks become one line-range edit against the version just read (the engine rebases
//   it through keystrokes that arrive meanwhile), journaled under the agent's name and the ACP
//   session, reviewable and undoable. A hunk overlapping the user's changes refuses the whole
//   write with the lines and what they hold now; nothing is written. A file that does not exist
//   is created (the `write` op: an atomic disk write); an existing file the session never read
//   is refused (read it first). A file not open in the editor is written atomically on disk by
//   the same path. Open buffers are not saved (docs/acp.md: "Saving").
// - attribute: the sidecar holding the file is told that its next foreign writes (for 120 s)
//   are this agent's, in this ACP session (the reconciler journals their merge so); sent at most
//   once per file every 20 s; no answer (answer() returns "").
// While the editor's sidecar is gone (SIDECAR_GONE: it died and its editor runs) a read is
// refused, not answered from the disk: the disk may lack the buffer's unsaved text, and an ACP
// answer has no channel for a warning (the CLI's stderr, MCP's text) — writes are refused then
// anyway. Errors are ACP (JSON-RPC) errors: -32602 bad params or a write over --max-write-bytes,
// -32002 a file that does not exist, -32001 any other refusal, with the hashline error (code,
// message, hint, data) under data.hashline.
//
// Threading: one bridge per proxy, used by its file worker thread only (calls block).
#pragma once

#include "lsp/acp/proxy_core.h"

#include <chrono>
#include <cstddef>
#include <map>
#include <string>

namespace hashline::acp {

inline constexpr int kAcpRefused = -32001;
inline constexpr int kAcpResourceNotFound = -32002;

struct FileBridgeOptions {
  std::size_t max_write_bytes = std::size_t{16} << 20;
};

class FileBridge {
public:
  explicit FileBridge(FileBridgeOptions options) : options_(options) {}

  /// The answer line (result or error) to the agent's request; "" for an Attribute.
  std::string answer(const FileCall& call);

private:
  std::string read(const FileCall& call);
  std::string write(const FileCall& call);
  void attribute(const FileCall& call);

  FileBridgeOptions options_;
  /// (ACP session, canonical path) → the file as the agent last saw it (lines each ended by "\n").
  std::map<std::string, std::string> views_;
  /// (ACP session, path) → when it was last attributed.
  std::map<std::string, std::chrono::steady_clock::time_point> attributed_;
};

} // namespace hashline::acp
