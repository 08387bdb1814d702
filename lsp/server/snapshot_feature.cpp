// hashline/snapshot: version, LSP line count and a fresh SHA-256 of the mirrored text.
#include "lsp/server/snapshot_feature.h"

#include "engine/support/sha256.h"
#include "lsp/protocol/basic_types.h"
#include "lsp/protocol/error_json.h"
#include "lsp/server/lsp_server.h"

namespace hashline::lsp {

using nlohmann::json;

namespace {

struct SnapshotParams {
  TextDocumentIdentifier textDocument;
};

bool fromJSON(const json& value, SnapshotParams& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("textDocument", out.textDocument);
}

} // namespace

std::string sha256OfRope(const Rope& text) {
  Sha256 hasher;
  text.forEachChunk(0, text.byteSize(), [&](std::string_view piece) { hasher.update(piece); });
  return hasher.finishHex();
}

void registerSnapshot(LspServer& server) {
  server.methods().addRequest<SnapshotParams>(
      "hashline/snapshot", [&server](SnapshotParams params, Reply reply) {
        auto open = server.documents().readable(params.textDocument.uri);
        if (!open.ok())
          return reply.error(RpcError::make(RpcErrorCode::RequestFailed, open.error().message,
                                            toJSON(open.error())));
        const Document& doc = (*open)->document;
        reply.result({{"uri", (*open)->uri},
                      {"version", doc.version()},
                      {"lineCount", doc.text().lineCount()},
                      {"sha256", sha256OfRope(doc.text())}});
      });
}

} // namespace hashline::lsp
