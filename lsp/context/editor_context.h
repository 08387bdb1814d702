// EditorContext: what the user is looking at, as the editor plugins report it (issue 21) —
// the focused document with its selections, and the visible documents with their visible
// ranges — read from the `hashline/context` notification and kept, latest only.
//
// Params (positions in the session's position encoding, 0-based as LSP):
//   { active: {uri, version?, selections: [Range]} | null,
//     visible: [{uri, version?, ranges: [Range]}], shared?: false }
// `shared: false` says the user turned sharing off: the store forgets every report.
// `selections[0]` is the primary selection (an empty range is the cursor). Bounds: kMaxVisible
// documents, kMaxRanges ranges each; the rest is dropped. The store also keeps the latest
// non-empty selection ("the user selected this, then clicked elsewhere"), for Claude Code's
// getLatestSelection. Nothing here does I/O. Threading: single-threaded (the io_context).
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::context {

struct EditorRange {
  std::uint32_t start_line = 0, start_character = 0;
  std::uint32_t end_line = 0, end_character = 0;
  bool empty() const { return start_line == end_line && start_character == end_character; }
};

struct ContextDocument {
  std::string uri;
  std::optional<std::int64_t> version;
  std::vector<EditorRange> ranges; // selections (active) or visible ranges
};

struct EditorContext {
  std::optional<ContextDocument> active;
  std::vector<ContextDocument> visible;
  std::chrono::steady_clock::time_point received{};
  bool shared = true; // false: sharing was turned off in the editor
};

/// Reads `hashline/context` params; the problem (for the log) when they are malformed.
/// Ranges with end before start are normalized; unusable entries are skipped.
std::optional<std::string> parseContextNotice(const nlohmann::json& params, EditorContext& out);

class EditorContextStore {
public:
  static constexpr std::size_t kMaxVisible = 32;
  static constexpr std::size_t kMaxRanges = 16;

  void update(EditorContext context);
  /// The latest report; null before the first.
  const EditorContext* latest() const { return received_ ? &latest_ : nullptr; }
  /// The latest report whose active document had a non-empty primary selection.
  const EditorContext* latestSelection() const {
    return selection_received_ ? &latest_selection_ : nullptr;
  }
  std::uint64_t updates() const { return updates_; }
  /// Whether the latest report said sharing was turned off.
  bool sharingOff() const { return sharing_off_; }

private:
  EditorContext latest_, latest_selection_;
  bool received_ = false, selection_received_ = false, sharing_off_ = false;
  std::uint64_t updates_ = 0;
};

} // namespace hashline::context
