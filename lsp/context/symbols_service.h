// Symbols inside `hashline lsp` (issue 21): a file's outline and `read --symbol`, resolved
// through the editor's own language servers. The sidecar never starts a language server: it asks
// the editor with the server→client request `hashline/documentSymbol` {textDocument: {uri}},
// which the plugins answer from their language servers' textDocument/documentSymbol:
//   {symbols: DocumentSymbol[] | SymbolInformation[], server?} or {symbols: null, reason}.
//
// Method `outline` {uri|path}: {status: "ok", uri, path?, version, server?, symbols: [{name,
//   qualifiedName, kind, detail?, from, to, depth}], rows, dropped?} — `rows` one line per symbol,
//   "FROM-TO kind qualifiedName".
// Method `symbol` {uri|path, symbol, session?, tier?, format?, ...}: the read of exactly the
//   symbol's lines (the `read` method's answer, recorded as read) plus `symbol` {name,
//   qualifiedName, kind, from, to}. `symbol` is "Class.method", "Class::method" or "method".
// Errors: NO_SYMBOLS (the file is not open in the editor, no plugin answers, no language server
// gives symbols for it, or it did not answer within kSymbolsTimeout: the reason is in the
// message), SYMBOL_NOT_FOUND (candidates in data.notes), AMBIGUOUS (several symbols of that name:
// their spans in data.notes), OUTSIDE_WORKSPACE, and -32602 for malformed params.
// Threading: the server's io_context.
#pragma once

#include <chrono>

namespace hashline::lsp {
class LspServer;
class HashlineService;
} // namespace hashline::lsp

namespace hashline::context {

inline constexpr std::chrono::milliseconds kSymbolsTimeout{5000};

void registerSymbols(lsp::LspServer& server, lsp::HashlineService& service);
/// `outline` and `symbol` for a service without an editor: NO_SYMBOLS, and why.
void addNoEditorSymbols(lsp::HashlineService& service);

} // namespace hashline::context
