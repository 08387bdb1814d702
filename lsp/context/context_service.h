// The user's view inside `hashline lsp` (issue 21): the `hashline/context` notification the
// plugins send (editor_context.h) and the `context` method agents ask.
//
// Method `context` {session?}: what the user has selected and sees, bound to the live text:
//   { status: "ok", available: true, ageMs, encoding,
//     active: {uri, path?, version, documentVersion, selections: [Selection]} | null,
//     visible: [{uri, path?, version, documentVersion, ranges: [{from, to}]}],
//     latestSelection?: {uri, path?, ageMs, selection: Selection} }
// Selection = {from: {line, character}, to: {line, character}, empty, text, rows, truncated?}:
// lines 1-based, characters in `encoding`; `text` is the selected text of the live buffer (cut at
// kMaxSelectionBytes); `rows` the anchored rows of the selected lines (at most
// kMaxSelectionLines), recorded as the session's read so "fix this" can be an edit straight
// away. When the buffer changed after the report, `documentVersion` is newer than `version` and
// a note says the positions are the report's. `latestSelection` is the latest non-empty
// selection, when the active document has none now. Documents outside the workspace roots are
// not reported. Without an editor, or before the plugin reported: `available: false` and why.
// Threading: the server's io_context.
#pragma once

namespace hashline::lsp {
class LspServer;
class HashlineService;
} // namespace hashline::lsp

namespace hashline::context {

void registerContext(lsp::LspServer& server, lsp::HashlineService& service);
/// The `context` method of a service without an editor: available false, and why.
void addNoEditorContext(lsp::HashlineService& service);

} // namespace hashline::context
