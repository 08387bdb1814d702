// ServiceTarget: where a document named by a request lives — open in the editor (the mirror
// has it: edits go through workspace/applyEdit) or on disk (workspace-confined file).
//
// `locateTarget` resolves `uri` or `path`: an open document wins (by URI, by the path's file
// URI, or by the real path's file URI when the path goes through a symlink); otherwise the path
// (a file: URI's path) is resolved and confined by the disk backend (OUTSIDE_WORKSPACE). A
// non-file URI that is not open is FILE_NOT_FOUND. Pure lookups; no reads of file contents.
#pragma once

#include "engine/support/result.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/service/service_request.h"
#include "lsp/workspace/document_store.h"

#include <optional>
#include <string>

namespace hashline::lsp {

class DiskBackend;

struct ServiceTarget {
  std::string key;                 // canonical URI: observation and queue key
  bool open = false;               // open in the editor
  std::string uri;                 // the client's spelling (open) or file:// of the real path
  std::optional<std::string> path; // filesystem path, when there is one
  std::optional<disk::ResolvedPath> resolved; // disk targets

  /// How results name its backend: "buffer" or "disk".
  const char* backendName() const { return open ? "buffer" : "disk"; }
};

/// `documents` may be null (no editor).
Result<ServiceTarget> locateTarget(const DocumentRef& ref, const DocumentStore* documents,
                                   const DiskBackend& disk);

/// The disk target of an already resolved path (patch files).
ServiceTarget diskTarget(const disk::ResolvedPath& resolved);

} // namespace hashline::lsp
