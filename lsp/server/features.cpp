// Wiring: every feature of the LSP server, registered in one list.
#include "lsp/server/features.h"

#include "lsp/server/snapshot_feature.h"
#include "lsp/server/text_sync_feature.h"
#include "lsp/service/service_feature.h"

namespace hashline::lsp {

void registerAllFeatures(LspServer& server) {
  registerTextSync(server); // the buffer mirror
  registerSnapshot(server); // hashline/snapshot
  registerAgentService(server); // hashline.read|edit|... commands and hashline/read|edit|... requests
  // Later features register here, e.g. registerReadCommand(server), registerEditCommand(server).
}

} // namespace hashline::lsp
