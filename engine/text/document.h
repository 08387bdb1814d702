// Document: one mirrored buffer — its current Rope, version, change log, and recent snapshots.
//
// The LSP mirror (lsp/) owns one Document per open URI and feeds it didChange content changes in
// the negotiated encoding; the engine reads it to issue and verify anchors. Applying a change is
// O(log n + |text|) plus O(length of the touched lines) to record the exact LineChange.
// A change that cannot apply (range past the end, inside a surrogate pair, version going
// backwards) returns ErrorCode::Desynced and leaves the Document marked desynced until a full-text
// replacement (`resetText`) — nothing is guessed. A notification that repeats the current version
// with no changes (Neovim sends one when a request flushes its debounce) is a no-op.
//
// Lone CR: the LSP counts a lone `\r` as a line break, and so does the Rope. Clients that do not
// (Neovim: neovim#15532) would address every line after one differently, so for them
// (`setLoneCrIsLineBreak(false)`) a text holding a lone CR is marked desynced — at open, and when
// a change creates one (checked around the change only) — and stays refused until reopened
// without it.
//
// Not thread-safe: the owner serializes access (one queue per document).
#pragma once

#include "engine/support/result.h"
#include "engine/text/change_log.h"
#include "engine/text/encoding.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline {

/// One LSP content change: a range in the document *as it is when this change applies*, or no
/// range for a full-text replacement.
struct ContentChange {
  std::optional<LspPosition> range_start;
  std::optional<LspPosition> range_end;
  std::string text;
};

class Document {
public:
  Document(std::int64_t version, std::string_view text);

  std::int64_t version() const { return version_; }
  const Rope& text() const { return text_; }
  const ChangeLog& changeLog() const { return log_; }
  bool desynced() const { return desynced_; }
  const std::string& desyncReason() const { return desync_reason_; }

  /// Applies the changes of one didChange notification in order, then sets `version`.
  /// On failure the document is marked desynced (its text stays as before the failing change).
  /// A version not greater than the current one is a desync too. A desynced document refuses
  /// everything but a notification whose first change is a full text.
  Status applyChanges(std::int64_t version, const std::vector<ContentChange>& changes,
                      PositionEncoding encoding);
  /// Replaces the whole text (didOpen again): clears desync, history and snapshots.
  /// (A full-text change inside applyChanges is different: on a synced document it is recorded
  /// as the one region that differs, so history survives; on a desynced one it resynchronizes
  /// through resetText.)
  void resetText(std::int64_t version, std::string_view text);
  /// Whether the client counts a lone CR as a line break (LSP: yes; Neovim: no). With `false`, a
  /// lone CR in the text (now or after a later change) marks the document desynced.
  void setLoneCrIsLineBreak(bool is_line_break);
  /// Replaces bytes [begin, end) as one change producing `version` (used by disk edits and
  /// tests); records the LineChange like applyChanges.
  Status applyByteEdit(std::int64_t version, std::size_t begin, std::size_t end,
                       std::string_view text);

  /// The text at an older version if still kept (versions that anchors were issued at are
  /// pinned with `keepSnapshot`); nullopt otherwise.
  std::optional<Rope> snapshotAt(std::int64_t version) const;
  /// Keeps the current version's Rope (O(1)) so reads issued at it can be compared later.
  /// At most `max_snapshots` are kept; the oldest are dropped.
  void keepSnapshot();

private:
  Status applyOne(const ContentChange& change, PositionEncoding encoding, std::int64_t version);
  /// Replaces bytes [begin, end) with `text` and records the exact LineChange. `begin_line`,
  /// when the caller knows it, is the line holding `begin` (saves a descent).
  void replaceAndRecord(std::int64_t version, std::size_t begin, std::size_t end,
                        std::string_view text, std::optional<std::size_t> begin_line = {});
  void recordChange(std::int64_t version, const Rope& before, std::size_t begin, std::size_t end,
                    std::string_view inserted);

  Rope text_;
  std::int64_t version_;
  ChangeLog log_;
  std::map<std::int64_t, Rope> snapshots_;
  std::size_t max_snapshots_ = 64;
  bool desynced_ = false;
  std::string desync_reason_;
  bool lone_cr_is_line_break_ = true;

  /// Marks the document desynced if bytes [begin, end) of the text hold a lone CR.
  void refuseLoneCr(std::size_t begin, std::size_t end);
};

} // namespace hashline
