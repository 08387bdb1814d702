// The anchored read: rows `LINE:LLL:BBB→text` for a window of one text version (DESIGN §3).
//
// `readWindow` is what `hashline.read` / `hashline read` call. It returns a ReadView: the
// version, tier and read line count of the text, and one row per shown line (1-based line,
// anchor text, line text without terminator or BOM). The caller records the view in the
// session's Observation (verify/observation.h) so later edits can be checked against it.
//
// Window rules: `from` defaults to 1 (0 is taken as 1), `to` defaults to the last line and is
// clamped to it; `from` past the last line, or `from > to`, is OUT_OF_RANGE. An empty text reads
// as one empty line 1.
//
// Thread-safety: as AnchorComputer (not thread-safe with a cache attached).
#pragma once

#include "engine/anchors/anchor.h"
#include "engine/anchors/line_hash_cache.h"
#include "engine/support/error.h"
#include "engine/support/result.h"
#include "engine/text/change_log.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hashline {

struct ReadView {
  std::int64_t version = 0;
  Tier tier = Tier::Block;
  std::uint32_t line_count = 0;     // read lines (no phantom last line)
  std::uint32_t lsp_line_count = 0; // LSP lines of the same text (line breaks + 1)
  std::uint32_t first_line = 0;     // window shown, 1-based inclusive
  std::uint32_t last_line = 0;
  std::vector<Anchor> anchors; // one per shown line, parallel to rows
  std::vector<AnchoredRow> rows;
};

/// Reads lines [from, to] of `text` at `version` (see the file comment for window rules).
/// `log` and `cache` are the document's, when it has them.
Result<ReadView> readWindow(const Rope& text, std::int64_t version, Tier tier,
                            std::optional<std::uint32_t> from = std::nullopt,
                            std::optional<std::uint32_t> to = std::nullopt,
                            const ChangeLog* log = nullptr, LineHashCache* cache = nullptr);

/// The rows as agents see them: one `LINE:LLL:BBB→text` per line, joined by '\n'.
std::string formatRows(const std::vector<AnchoredRow>& rows);

} // namespace hashline
