// The buffer mirror's LSP surface: textDocument/didOpen, didChange, didClose, didSave.
//
// Converts the notifications into DocumentStore calls in the negotiated encoding, and tells the
// editor (window/logMessage, type Error) the moment a document loses sync — with the reason and
// what brings it back — and again (Info) when a full text resynchronizes it.
#pragma once

namespace hashline::lsp {

class LspServer;

void registerTextSync(LspServer& server);

} // namespace hashline::lsp
