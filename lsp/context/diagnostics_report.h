// What the editor's diagnostics look like to an agent: the `hashline/diagnostics` params read
// into EditorDiagnostics, the before/after comparison an edit result reports, and anchored rows.
//
// A diagnostic row is the line's anchor, the severity, the source and the message:
//   `12:c3d:rst error clangd: use of undeclared identifier 'x'`
// Anchors are those of a read of that line at the snapshot's version (recorded as observed, as
// search does, so an edit can follow from a diagnostic without a read).
//
// Comparison (an edit's `introduced` / `removed`): diagnostics are matched as a multiset, first
// by severity + source + code + message + the text of their line (a diagnostic whose line only
// moved matches), then by severity + source + code + message alone, nearest line first (its line
// was edited but the problem stayed). What is left of `after` was introduced, of `before` removed.
#pragma once

#include "engine/anchors/reader.h"
#include "lsp/context/diagnostics_store.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline {
class Observation;
class Rope;
class ChangeLog;
class LineHashCache;
} // namespace hashline

namespace hashline::context {

struct DiagnosticsNotice {
  std::string uri;
  std::optional<std::int64_t> version;
  std::vector<EditorDiagnostic> items;
};

/// Reads `hashline/diagnostics` params; the problem (for the log) when they are malformed.
/// Diagnostics without a usable range or message are skipped, not fatal.
std::optional<std::string> parseDiagnosticsNotice(const nlohmann::json& params,
                                                  DiagnosticsNotice& out);

/// The trimmed, capped text of 0-based `line` of `text` (empty past the end).
std::string lineTextForMatching(const Rope& text, std::uint32_t line);

struct DiagnosticsDelta {
  std::vector<std::size_t> introduced; // indices into `after`
  std::vector<std::size_t> removed;    // indices into `before`
  std::size_t unchanged = 0;
};
DiagnosticsDelta compareDiagnostics(const std::vector<EditorDiagnostic>& before,
                                    const std::vector<EditorDiagnostic>& after);

/// The text an agent reads for one diagnostic, after its anchor: "error clangd: message".
std::string describeDiagnostic(const EditorDiagnostic& item);

/// Where rows are anchored: a document's text at a version (DocumentSnapshot's parts).
struct AnchorSource {
  const Rope* text = nullptr;
  std::int64_t version = 0;
  Tier tier = Tier::Line;
  const ChangeLog* log = nullptr;
  LineHashCache* cache = nullptr;
  Observation* observation = nullptr; // rows recorded as observed, when set
};

/// One diagnostic as JSON: {line (1-based), character, endLine, severity, source?, code?,
/// message, anchor?, row}. `anchor` only when the line exists in `where` (a removed diagnostic
/// whose line is gone has none).
nlohmann::json diagnosticToJSON(const EditorDiagnostic& item, const AnchorSource& where);

/// Counts per severity name, e.g. {"error": 2, "warning": 1}.
nlohmann::json severityCounts(const std::vector<EditorDiagnostic>& items);

} // namespace hashline::context
