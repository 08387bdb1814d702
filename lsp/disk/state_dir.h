// The per-user directories hashline keeps outside any repository.
//
// State (journal, what CLI sessions observed, per-workspace records) survives restarts and lives
// in `$HASHLINE_STATE_DIR` (tests), else `$XDG_STATE_HOME/hashline`, else
// `~/.local/state/hashline`, with one subdirectory per workspace root. Runtime files (agent
// sockets, discovery files, lock files) live in `$HASHLINE_RUNTIME_DIR` (tests), else
// `$XDG_RUNTIME_DIR/hashline` (when that directory exists and is ours), else
// `<tmp>/hashline-<uid>`.
//
// Every directory made here is 0700. An existing directory is used only when it is a real
// directory (not a symlink) owned by this user; a group/world-accessible one we own is tightened
// to 0700, and one owned by someone else is refused with IO_ERROR — in a shared /tmp another user
// could otherwise pre-create it and watch or hijack our sockets. Thread-safe (no caching).
#pragma once

#include "engine/support/result.h"

#include <string>
#include <string_view>

namespace hashline::disk {

/// The state directory, created if needed.
Result<std::string> stateDirectory();

/// `<state>/workspaces/<name>-<hash>`: a private directory for one canonical workspace root
/// (`name` is the root's last component, `hash` tells same-named roots apart).
Result<std::string> workspaceStateDirectory(std::string_view canonical_root);

/// The runtime directory for sockets, discovery and lock files, created if needed.
Result<std::string> runtimeDirectory();

/// Makes `path` (and missing parents) with mode 0700, or checks an existing one as described
/// above. Parents that exist are left alone.
Status ensurePrivateDirectory(const std::string& path);

} // namespace hashline::disk
