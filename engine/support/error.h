// The one error vocabulary of hashline (DESIGN §9).
//
// Every refusal anywhere in the product is an `Error`: a stable code an agent can branch on, a
// message saying what happened, a one-line hint saying what to do next, and structured data
// (current text, fresh anchors, candidates). The engine builds these as values; lsp/ turns them
// into JSON, CLI text or MCP results. Codes, names and default hints live in error.cpp, once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline {

enum class ErrorCode {
  NotObserved,
  StaleVersion,
  StaleAnchor,
  AmbiguousAnchor,
  AnchorUnknown,
  MalformedAnchor,
  OutOfRange,
  NotFound,
  Ambiguous,
  OverlappingEdits,
  NoChange,
  NotText,
  FileNotFound,
  OutsideWorkspace,
  PatchInvalid,
  EditorRejected,
  EditorTimeout,
  Desynced,
  Conflict,
  IoError,
  InvalidPattern,
  SymbolNotFound,
  NoSymbols,
  SidecarGone,
};

/// "NOT_OBSERVED", "STALE_ANCHOR", ... — the wire name of a code.
std::string_view errorCodeName(ErrorCode code);
/// Parses a wire name back; nullopt when unknown.
std::optional<ErrorCode> errorCodeFromName(std::string_view name);
/// The default one-line fix hint for a code ("re-read the file, then retry").
std::string_view defaultHint(ErrorCode code);

/// One anchored row as shown to an agent: 1-based line, anchor ("22:c3d:rst"), line text.
struct AnchoredRow {
  std::uint32_t line = 0;
  std::string anchor;
  std::string text;
  bool operator==(const AnchoredRow&) const = default;
};

/// Structured payload of an error; every field is optional and empty when not relevant.
struct ErrorData {
  std::optional<std::string> current_text;    // the text now at the place the edit aimed at
  std::vector<AnchoredRow> fresh_anchors;     // re-read window around the failure
  std::vector<std::uint32_t> candidate_lines; // 1-based lines that matched (ambiguity, moves)
  std::optional<std::string> suggestion;      // e.g. "13:c3d:rst" for a moved anchor
  std::optional<std::size_t> edit_index;      // 0-based index of the failing edit in a batch
  std::optional<std::size_t> edit_count;      // size of that batch
  std::optional<std::string> path;            // the file concerned, when known
  std::vector<std::string> notes;             // extra human-readable facts (closest match, ...)
};

struct Error {
  ErrorCode code;
  std::string message;
  std::string hint;
  ErrorData data;

  /// An error with the code's default hint.
  static Error make(ErrorCode code, std::string message);
  /// Prefixes the message with "edit i/n: " and records the index, for batch failures.
  Error& inEdit(std::size_t index, std::size_t count);
  Error& withHint(std::string h) {
    hint = std::move(h);
    return *this;
  }
};

} // namespace hashline
