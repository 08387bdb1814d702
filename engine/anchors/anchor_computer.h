// AnchorComputer: the anchors of any lines of one text version, in any tier.
//
// Line tier needs only the line's own hash; block tier hashes the line's whole aligned 8-line
// block; chain tier hashes from the line's 32-line checkpoint up to the line. So anchoring a window
// of W lines costs O(W + 32) line hashes, whatever the document size. Hashes come from the
// document's LineHashCache when one is given (reads of a live document), else are computed.
//
// Used by the reader (rows for agents) and the verifier (re-computing anchors, searching for moved
// lines, fresh anchors after an edit). Holds references: the Rope, log and cache must outlive it.
// Not thread-safe when a cache is attached.
#pragma once

#include "engine/anchors/anchor.h"
#include "engine/anchors/line_hash_cache.h"
#include "engine/text/change_log.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <vector>

namespace hashline {

class AnchorComputer {
public:
  AnchorComputer(const Rope& text, std::int64_t version, const ChangeLog* log = nullptr,
                 LineHashCache* cache = nullptr);

  const Rope& text() const { return text_; }
  std::int64_t version() const { return version_; }
  /// Read lines of the text (no phantom last line; >= 1).
  std::uint32_t lineCount() const { return line_count_; }

  /// 64-bit hashes of lines [first, last]; precondition 1 <= first <= last <= lineCount().
  std::vector<std::uint64_t> lineHashes(std::uint32_t first, std::uint32_t last) const;
  /// Anchors of lines [first, last] in `tier`; same precondition.
  std::vector<Anchor> anchors(Tier tier, std::uint32_t first, std::uint32_t last) const;
  Anchor anchorAt(Tier tier, std::uint32_t line) const;
  /// The first and last line a `tier` anchor of `line` depends on (its block or chain segment,
  /// or the line itself), clamped to the text.
  std::pair<std::uint32_t, std::uint32_t> coveredLines(Tier tier, std::uint32_t line) const;

private:
  const Rope& text_;
  std::int64_t version_;
  const ChangeLog* log_;
  LineHashCache* cache_;
  std::uint32_t line_count_;
};

/// The lines a `tier` anchor of `line` depends on, for a text of `line_count` read lines.
std::pair<std::uint32_t, std::uint32_t> coveredLines(Tier tier, std::uint32_t line,
                                                     std::uint32_t line_count);

} // namespace hashline
