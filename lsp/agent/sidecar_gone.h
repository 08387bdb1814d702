// SIDECAR_GONE: what the CLI and MCP do when the editor's sidecar for a workspace is not there
// to answer — its discovery record outlived it (crashed, killed), its socket refuses, or it does
// not answer the liveness ping in time (agent_router.h decides; discovery.h keeps the records).
//
// The editor may hold the files open with unsaved changes that nothing mirrors any more, so:
//   - a call that changes something (every edit form, patch, undo, reject, rewind, accept, turn,
//     resolve — any method not listed as a read) is refused with SIDECAR_GONE and nothing is
//     written, unless the caller asked for the disk on purpose (CLI `--disk`, `hashline mcp
//     --disk`): then it runs on the disk and the result carries the warning below;
//   - a read (read, symbol, outline, search, diagnostics, context, status, log, diff, pending,
//     conflicts) is answered from the disk with a `warning` object {code: "SIDECAR_GONE",
//     message, hint, data} in the result: the text is the disk's, which may lack what the user
//     typed. The CLI prints the warning on stderr, MCP puts it first in the tool's text.
// A call whose request reached the sidecar before it stopped answering (timeout, connection
// closed) is refused with SIDECAR_GONE saying it may still have been applied.
//
// Threading: none (pure functions).
#pragma once

#include "engine/support/error.h"
#include "lsp/agent/discovery.h"

#include <nlohmann/json.hpp>
#include <string>

namespace hashline::agent {

/// True for the methods that only read (answered from the disk, with a warning, when gone).
bool readsOnly(const std::string& method);

/// The error for `path` (or the workspace) served by `sidecar`, which is gone because `why`.
Error sidecarGone(const SidecarInfo& sidecar, const std::string& path, const std::string& why);

/// The refusal for a request the sidecar received and then did not answer (`why`).
Error sidecarLost(const SidecarInfo& sidecar, const std::string& path, const std::string& why);

/// `error` as the refusal of a call that would change something: nothing was written.
Error refusedWhileGone(Error error);
/// Adds `warning` (from `error`) to a result object answered from the disk instead.
void addGoneWarning(nlohmann::json& result, const Error& error, bool wrote_on_purpose);

/// "the editor's hashline sidecar (pid N, roots A, B)".
std::string describeSidecar(const SidecarInfo& sidecar);

} // namespace hashline::agent
