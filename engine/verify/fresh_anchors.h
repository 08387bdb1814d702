// Fresh anchors after an edit: rows ±context lines around every changed span of the new text,
// recorded in the session's Observation at the version the edit produced — so the agent can
// chain edits with the anchors of the result without another read (DESIGN §4, issue 3).
// Used by the service once an edit landed (confirmed in a buffer, written on disk). Pure (no
// I/O); not thread-safe.
#pragma once

#include "engine/anchors/anchor.h"
#include "engine/anchors/line_hash_cache.h"
#include "engine/support/error.h"
#include "engine/text/change_log.h"
#include "engine/text/rope.h"
#include "engine/verify/observation.h"

#include <cstdint>
#include <vector>

namespace hashline {

/// Reads the windows and records them in `observation` (when not null).
std::vector<AnchoredRow> issueFreshAnchors(const Rope& text, std::int64_t version, Tier tier,
                                           const std::vector<LineSpan>& changed,
                                           std::uint32_t context_lines, const ChangeLog* log,
                                           LineHashCache* cache, Observation* observation);

} // namespace hashline
