// The sidecar's sweeps of dead writers' temps; see temp_sweep_feature.h.
#include "lsp/service/temp_sweep_feature.h"

#include "lsp/disk/temp_file.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/server/lsp_server.h"
#include "lsp/support/uri.h"

#include <string>
#include <vector>

namespace hashline::lsp {
namespace {

void sweepRoots(const std::vector<std::string>& roots) {
  for (const std::string& root : roots)
    disk::sweepStaleTempsOnce(root);
}

// The directory of an opened document, when it lies inside the roots (confined, so the sweep
// never follows a symlink out of the workspace).
void sweepBeside(const std::string& uri, const std::vector<std::string>& roots) {
  std::optional<std::string> path = fileUriToPath(uri);
  if (!path) return;
  Result<disk::WorkspaceRoots> workspace = disk::WorkspaceRoots::make(roots);
  if (!workspace) return;
  Result<disk::ResolvedPath> resolved = workspace->resolve(*path, "/");
  if (resolved) disk::sweepStaleTempsBeside(*resolved);
}

} // namespace

void registerTempSweeps(LspServer& server) {
  server.onInitialize(
      [&server](const InitializeParams&, nlohmann::json&) { sweepRoots(server.workspaceRoots()); });
  server.onRootsChanged(sweepRoots);
  server.documents().addListener([&server](const DocumentEvent& event) {
    if (event.kind == DocumentEvent::Opened) sweepBeside(event.key, server.workspaceRoots());
  });
}

} // namespace hashline::lsp
