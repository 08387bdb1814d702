// The agent socket inside `hashline lsp`: wiring of AgentEndpoint into the server (features.cpp).
//
// After `initialize` (when the workspace roots are known) it opens the private socket and
// publishes the discovery file — naming the editor (initialize's processId, else this process's
// parent), so a record a crash leaves behind is kept while that editor runs (discovery.h) —
// unless the client said `initializationOptions.agentSocket:
// false` or the environment has HASHLINE_AGENT_SOCKET=0. Roots are those of initialize (the
// service confines disk work to them too; workspace folder changes are not followed yet). The
// socket shares `service` with the LSP commands, so an agent's reads through the socket and its
// edits are one session state. SIGTERM and SIGINT withdraw the discovery file and socket and stop
// the server; a normal exit withdraws them too (a static guard that only unlinks files) — except
// the discovery record after `hashline/restarting` (the editor stops this sidecar to start
// another), which stays like a crash's so that the gap is SIDECAR_GONE, never disk mode.
// HASHLINE_AGENT_MAX_MESSAGE_BYTES caps one socket message (default 16M).
//
// Threading: everything on the server's io_context.
#pragma once

namespace hashline::lsp {

class LspServer;
class AgentService;

void registerAgentEndpoint(LspServer& server, AgentService& service);

} // namespace hashline::lsp
