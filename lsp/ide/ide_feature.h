// Claude Code's IDE integration inside `hashline lsp` (docs/claude-ide.md): wiring of the
// WebSocket server, the lock file and the protocol into the server (features.cpp).
//
// Off unless asked for: `initializationOptions.claudeIde: true` (the plugins' setting) or
// `hashline lsp --claude-ide` / HASHLINE_CLAUDE_IDE=1. After `initialize` it sweeps stale lock
// files of ours, makes a fresh token, listens on 127.0.0.1 (ephemeral port) and writes
// `<claude config dir>/ide/<port>.lock`; workspace folder changes rewrite it; a normal exit or
// SIGTERM/SIGINT removes it (a static guard that only unlinks the file).
// The state (on, port, lock file, the Claude Codes connected) is the `claudeIde` field of every
// `status` answer and goes to the editor as the notification `hashline/claudeIde` after
// `initialized` and whenever a Claude Code connects or disconnects (the status items).
// HASHLINE_CLAUDE_IDE_MAX_MESSAGE_BYTES caps one WebSocket message (default 16M).
// Threading: everything on the server's io_context.
#pragma once

namespace hashline::lsp {

class LspServer;
class HashlineService;

void registerClaudeIde(LspServer& server, HashlineService& service);

} // namespace hashline::lsp
