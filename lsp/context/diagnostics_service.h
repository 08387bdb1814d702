// The editor's diagnostics inside `hashline lsp` (issue 21): the `hashline/diagnostics`
// notification the plugins send, the `diagnostics` method, and diagnostics in edit results.
//
// Notification `hashline/diagnostics` {uri, version?, diagnostics: [LSP Diagnostic]}: what the
// editor holds for that document from its own language servers (Neovim: vim.diagnostic, VS
// Code: languages.getDiagnostics), replacing the previous set (DiagnosticsStore). Documents
// outside the workspace roots are dropped.
//
// Method `diagnostics` {uri|path?, severity?}: the sets for one document or every document,
// at `severity` or worse, each diagnostic as an anchored row (diagnostics_report.h; recorded
// as observed). With no editor, or an editor that never sent any: `available: false` and a note
// saying why — nothing is invented.
//
// Edit results: every applied mutation (edit forms, patch, undo, reject, rewind) on a document
// open in the editor that has a diagnostics set waits for the editor's set for the version the
// edit produced (a set tagged with that version or later, then `kQuietMs` without another), at
// most `diagnosticsWaitMs` (params; default HASHLINE_DIAGNOSTICS_WAIT_MS or 500 ms; 0 = no
// wait), and adds `diagnostics`: {settled, waitedMs, version, introduced: [...], removed:
// [...], counts, more?} — what this edit introduced or removed, compared with the set the
// document had when the call started. `diagnostics: false` in params skips it. A document with
// no set (no language server reported on it) gets {available: false, note} without waiting.
// Threading: the server's io_context.
#pragma once

namespace hashline::lsp {
class LspServer;
class HashlineService;
} // namespace hashline::lsp

namespace hashline::context {

void registerDiagnostics(lsp::LspServer& server, lsp::HashlineService& service);
/// The `diagnostics` method of a service without an editor: available false, and why.
void addNoEditorDiagnostics(lsp::HashlineService& service);

} // namespace hashline::context
