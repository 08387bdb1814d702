// Sweeping inside `hashline lsp`: the temps that disk writers killed mid-write left beside files
// (`.hashline-tmp.*` whose flock died with their writer, lsp/disk/temp_file.h) are removed from
// the workspace roots at initialize and when folders are added, and from a document's directory
// when the editor first opens a document there (only inside the roots). The disk backend sweeps
// a directory when it first reads a file there too; each directory is swept once per process.
#pragma once

namespace hashline::lsp {

class LspServer;

/// Registers the sweeps on `server`'s initialize, roots-changed and didOpen events.
void registerTempSweeps(LspServer& server);

} // namespace hashline::lsp
