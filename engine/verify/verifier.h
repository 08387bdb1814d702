// Verifier: a batch of anchored edits → one verified EditPlan, or one refusal (DESIGN §4, §5.1).
//
// Entry point for every caller that edits with anchors: the LSP commands (`hashline.edit`), the
// agent socket, MCP, and the CLI / disk path. Call it with
//   - a TextState: `TextState::ofDocument(doc)` for a live buffer (exact rebasing through its
//     ChangeLog), `TextState::ofPlainText(rope, fingerprint_id)` for a file on disk (no history:
//     anchors issued at the same fingerprint id are exact, others are checked by digest), or
//     `TextState::missing()` for a file that does not exist (only a `write` may create it);
//   - the session's Observation of that document (nullptr = never read it): NOT_OBSERVED unless
//     the batch creates a missing file. The verifier records into it the fresh anchors it shows
//     in an error (they are issued at the current version);
//   - the edits, and VerifyOptions (the document's LineHashCache for live buffers).
//
// Checks, in order (the first failing step refuses the whole batch; nothing is applied):
//   0. no edits → NO_CHANGE; a `write` mixed with other edits → OVERLAPPING_EDITS; missing file
//      and not a lone write → FILE_NOT_FOUND; never observed → NOT_OBSERVED. Given an (empty)
//      observation rather than nullptr, the refusal carries the lines the edits' anchors name
//      (±context, as the text is now) with fresh anchors recorded in it as issued — one step back
//      for an agent whose reads a restarted sidecar forgot (the service does so for open buffers).
//   1. input, per edit in request order: anchors parse (MALFORMED_ANCHOR), `end` not before the
//      anchor, content without pasted read prefixes (`12:abc:rst→`, MALFORMED_ANCHOR) and valid
//      UTF-8 without NUL (NOT_TEXT).
//   2. anchors, all edits (anchor_resolver.h): a replace/delete range must also be untouched
//      inside since the read (exact with history; by issued anchors without). Errors are ranked
//      STALE_ANCHOR, STALE_VERSION, AMBIGUOUS_ANCHOR, ANCHOR_UNKNOWN, OUT_OF_RANGE — staleness
//      first — then by request order; the others are listed in data.notes. A `write` over an
//      existing file needs the text unchanged since the session's latest read (STALE_VERSION).
//   3. overlaps (OVERLAPPING_EDITS naming both edits): replaced ranges may not intersect; an
//      insertion strictly inside a replaced span, or at its start, is refused; at its exclusive
//      end it is allowed.
//   4. the batch changes nothing → NO_CHANGE (pinned: a refusal, not a silent success); single
//      edits that change nothing are dropped with a warning.
// Edits use the numbering of the read (original numbering), are applied bottom-up, and inserts
// at one position keep request order. Errors name the edit (`edit 2/3: ...`).
//
// Not thread-safe (the observation and cache belong to the caller's per-document queue).
#pragma once

#include "engine/anchors/anchor.h"
#include "engine/anchors/line_hash_cache.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/verify/anchored_edit.h"
#include "engine/verify/observation.h"
#include "engine/verify/text_state.h"

#include <cstdint>
#include <vector>

namespace hashline {

struct VerifyOptions {
  Tier tier = Tier::Block;          // for sessions that never read (file creation)
  std::uint32_t search_radius = 15; // ± lines searched for moved content (no history)
  std::uint32_t context_lines = 3;  // ± lines of fresh anchors in errors and results
  LineHashCache* cache = nullptr;   // the document's cache (live buffers)
};

struct VerifiedEdit {
  EditPlan plan; // byte edits on the state's text; base_version = state.version
  Rope after;    // the predicted text (plan applied)
  Tier tier = Tier::Block;
  std::uint32_t line_count_after = 0;
  std::uint32_t lsp_line_count_after = 0;
  std::vector<LineSpan> changed_lines; // lines of `after` holding new or replaced text
  std::vector<Anchor> fresh_anchors;   // ±context_lines around each change, in `after`
  std::vector<AnchoredRow> fresh_rows; // the same, as rows (line, anchor, text)

  /// Records the fresh anchors as issued at `version` — call once the editor (or the disk
  /// write) has produced `after` at that version, so chained edits verify exactly.
  void recordFreshAnchors(Observation& observation, std::int64_t version) const;
};

Result<VerifiedEdit> verifyAnchoredEdits(const TextState& state, Observation* observation,
                                         const std::vector<AnchoredEdit>& edits,
                                         const VerifyOptions& options = {});

} // namespace hashline
