// Locating a request's document: editor buffer or disk file; see service_target.h.
#include "lsp/service/service_target.h"

#include "lsp/service/disk_backend.h"
#include "lsp/support/uri.h"

namespace hashline::lsp {

namespace {

ServiceTarget bufferTarget(const OpenDocument& open) {
  ServiceTarget target;
  target.key = canonicalUri(open.uri);
  target.open = true;
  target.uri = open.uri;
  target.path = fileUriToPath(open.uri);
  return target;
}

} // namespace

ServiceTarget diskTarget(const disk::ResolvedPath& resolved) {
  ServiceTarget target;
  target.uri = pathToFileUri(resolved.real_path);
  target.key = canonicalUri(target.uri);
  target.path = resolved.real_path;
  target.resolved = resolved;
  return target;
}

Result<ServiceTarget> locateTarget(const DocumentRef& ref, const DocumentStore* documents,
                                   const DiskBackend& disk) {
  std::string path;
  if (ref.uri) {
    if (documents)
      if (const OpenDocument* open = documents->find(*ref.uri)) return bufferTarget(*open);
    std::optional<std::string> file = fileUriToPath(*ref.uri);
    if (!file) {
      Error error = Error::make(ErrorCode::FileNotFound,
                                *ref.uri + " is not open in the editor and is not a file: URI");
      error.withHint("open the document in the editor, or name a file by path");
      error.data.path = *ref.uri;
      return error;
    }
    path = *file;
  } else {
    path = ref.path.value_or("");
    if (documents && !path.empty()) {
      std::string absolute = path;
      if (absolute[0] != '/') {
        std::vector<std::string> roots = disk.roots();
        if (!roots.empty()) absolute = roots[0] + "/" + path;
      }
      if (absolute[0] == '/')
        if (const OpenDocument* open = documents->findByPath(absolute)) return bufferTarget(*open);
    }
  }
  Result<disk::ResolvedPath> resolved = disk.resolve(path);
  if (!resolved) return std::move(resolved).error();
  if (documents)
    if (const OpenDocument* open = documents->findByPath(resolved->real_path))
      return bufferTarget(*open);
  return diskTarget(*resolved);
}

} // namespace hashline::lsp
