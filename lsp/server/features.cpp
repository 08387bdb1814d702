// Wiring: every feature of the LSP server, registered in one list.
#include "lsp/server/features.h"

#include "lsp/agent/agent_feature.h"
#include "lsp/ide/ide_feature.h"
#include "lsp/server/snapshot_feature.h"
#include "lsp/server/text_sync_feature.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/service_feature.h"

namespace hashline::lsp {

void registerAllFeatures(LspServer& server) {
  registerTextSync(server); // the buffer mirror
  registerSnapshot(server); // hashline/snapshot
  // hashline.read|edit|... commands, hashline/read|edit|... requests, and the agent socket
  HashlineService& service = registerAgentService(server);
  registerAgentEndpoint(server, service);
  registerClaudeIde(server, service); // Claude Code's IDE WebSocket, when asked for
  // Later features register here, e.g. registerReadCommand(server), registerEditCommand(server).
}

} // namespace hashline::lsp
