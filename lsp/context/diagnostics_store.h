// DiagnosticsStore: the latest diagnostics the editor reported for each document (from the
// plugins' `hashline/diagnostics` notification: what the editor's own language servers found,
// unsaved text included), bounded in memory, with waiters for "a set for version ≥ V".
//
// One set per document key (the canonical URI, as ServiceTarget::key); a new notification
// replaces the set. Bounds: kMaxItemsPerDocument diagnostics per set (the rest counted in
// `dropped`), messages cut at kMaxMessageBytes, at most kMaxDocuments sets (the one updated
// longest ago is forgotten first). Each diagnostic keeps the text of the line it sat on when it
// arrived, so an edit result can tell a diagnostic that only moved from one that is new.
//
// Waiters: `waitFor(key, version, notify)` calls `notify` on every later update of that key
// whose version is ≥ `version` (or carries none); the caller owns its timers and cancels with
// `cancel(id)`. Nothing here does I/O or knows about time beyond the arrival stamp.
// Threading: single-threaded (the server's io_context).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hashline::context {

/// LSP DiagnosticSeverity: 1 error … 4 hint.
enum class Severity : std::uint8_t { Error = 1, Warning = 2, Information = 3, Hint = 4 };

const char* severityName(Severity severity);
/// "error", "warning", "information" (or "info"), "hint"; nullopt for anything else.
std::optional<Severity> severityFromName(const std::string& name);

struct EditorDiagnostic {
  std::uint32_t line = 0;      // 0-based start line, as LSP
  std::uint32_t character = 0; // start column in the session's position encoding
  std::uint32_t end_line = 0;
  Severity severity = Severity::Error;
  std::string source;    // e.g. "clangd"; may be empty
  std::string code;      // the server's code, as text; may be empty
  std::string message;   // cut at kMaxMessageBytes
  std::string line_text; // the line's text when the set arrived (trimmed, capped)
};

struct DiagnosticsSet {
  std::string key; // canonical URI
  std::string uri; // as the editor spelled it
  std::optional<std::int64_t> version;
  std::vector<EditorDiagnostic> items;
  std::size_t dropped = 0; // items past kMaxItemsPerDocument
  std::chrono::steady_clock::time_point received{};
  std::uint64_t sequence = 0; // store-wide arrival order
};

using DiagnosticsSetPtr = std::shared_ptr<const DiagnosticsSet>;

class DiagnosticsStore {
public:
  static constexpr std::size_t kMaxItemsPerDocument = 500;
  static constexpr std::size_t kMaxMessageBytes = 1024;
  static constexpr std::size_t kMaxDocuments = 2000;

  /// Replaces `set.key`'s set (bounds applied), then tells the key's waiters.
  void update(DiagnosticsSet set);
  DiagnosticsSetPtr find(const std::string& key) const;
  /// Every set, by key.
  std::vector<DiagnosticsSetPtr> all() const;
  /// Whether the editor ever sent one (the plugin forwards diagnostics at all).
  bool anyReceived() const { return sequence_ > 0; }

  using Waiter = std::function<void(const DiagnosticsSetPtr& set)>;
  std::uint64_t waitFor(const std::string& key, std::int64_t version, Waiter notify);
  void cancel(std::uint64_t id);

private:
  struct Waiting {
    std::string key;
    std::int64_t version = 0;
    Waiter notify;
  };
  std::map<std::string, DiagnosticsSetPtr> sets_;
  std::map<std::uint64_t, Waiting> waiters_;
  std::uint64_t sequence_ = 0;
  std::uint64_t next_waiter_ = 1;
};

} // namespace hashline::context
