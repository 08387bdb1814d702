// AnchorResolver: where one anchor points in the current text, or why it points nowhere
// (DESIGN §4 steps 1–2). Used by the verifier for every anchor of a batch.
//
// 1. The anchor was issued to this session (Observation::issuerOf) at version v, and either v is
//    the current version or the ChangeLog covers v → exact: the line is mapped through the log;
//    if it, or any line its tier's digest covered at v (its 8-line block, or its chain from the
//    32-line checkpoint), was touched since → STALE_ANCHOR with the current text and fresh
//    anchors. Else it resolves to the mapped line, reported as a rebase when the line moved.
// 2. Otherwise (no history: a disk file changed outside, a restart, a truncated log, an anchor
//    from another session) → compare digests at the stated line. On mismatch, lines within
//    ±search_radius whose line digest matches are candidates: one → STALE_ANCHOR with a
//    suggestion (never applied); several → AMBIGUOUS_ANCHOR; none → STALE_ANCHOR if the anchor
//    was issued (the line changed), ANCHOR_UNKNOWN if never (miscopied). A line past the end is
//    OUT_OF_RANGE unless a candidate is found near the end.
// A 2-part (line tier) anchor where the session reads in block or chain tier is stale, never a
// silent downgrade. Errors carry fresh anchors ±context_lines around the place concerned.
// Not thread-safe (shares the AnchorComputer's cache).
#pragma once

#include "engine/anchors/anchor.h"
#include "engine/anchors/anchor_computer.h"
#include "engine/support/result.h"
#include "engine/verify/observation.h"
#include "engine/verify/text_state.h"

#include <cstdint>
#include <optional>

namespace hashline {

struct ResolvedAnchor {
  Anchor anchor;                      // as the agent wrote it
  std::uint32_t line = 0;             // current 1-based line it resolves to
  Tier tier = Tier::Block;            // tier its context digest was checked in
  const ReadRecord* record = nullptr; // the read that issued it, if any
  bool exact = false;                 // resolved through history (same version or the log)
};

struct ResolveContext {
  const TextState& state;
  const Observation* observation; // may be null (foreign anchors only)
  const AnchorComputer& current;  // anchors of state.text
  Tier session_tier;
  std::uint32_t search_radius = 15;
  std::uint32_t context_lines = 3;
};

Result<ResolvedAnchor> resolveAnchor(const Anchor& anchor, const ResolveContext& context);

/// Whether history (same version, or a covering ChangeLog) links `record` to the current text.
bool hasHistory(const ReadRecord& record, const TextState& state);

/// Fresh rows (current anchors and text) for lines [first, last] clamped to the text.
std::vector<AnchoredRow> freshRows(const AnchorComputer& current, Tier tier, std::int64_t first,
                                   std::int64_t last);

/// An error about `focus_line` of the current text: current_text and fresh rows ±context.
Error anchorError(ErrorCode code, std::string message, const ResolveContext& context,
                  std::uint32_t focus_line, Tier tier);

} // namespace hashline
