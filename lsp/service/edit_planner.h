// EditPlanner: one form request + the current text → one verified plan with its prediction.
//
// The service's backends (buffer pipeline, disk) call `planForm` with the TextState of the
// document as it is *now* and the session's Observation. Every form ends in the same
// PlannedEdit: the EditPlan against that text, the predicted text after it, the tier for fresh
// anchors, and the lines of the predicted text that hold new text (for fresh anchors and diffs).
//
// Order of checks (DESIGN §4, docs/forms.md): anchored edits are verified by the engine verifier
// (NOT_OBSERVED, staleness, ...). Text forms first pass the read guard — NOT_OBSERVED, then
// STALE_VERSION when the text differs from the session's latest read (a version bump with the
// same text is not stale: live buffers compare the pinned snapshot of the read version) — then
// their own matching. On a retry (the user typed while the editor was applying) the read guard
// was already passed: text forms are re-matched against the new text; anchors re-verified.
// Not thread-safe: runs on the document's queue.
#pragma once

#include "engine/anchors/line_hash_cache.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/document.h"
#include "engine/verify/observation.h"
#include "engine/verify/text_state.h"
#include "lsp/service/service_request.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hashline::lsp {

struct PlannedEdit {
  EditPlan plan; // against the state's text; base_version = state.version
  Rope before;   // the state's text
  Rope after;    // the predicted text
  Tier tier = Tier::Block;
  std::vector<LineSpan> changed_lines; // 1-based read lines of `after` holding new text
  /// 0-based LSP lines of `before` the plan touches (first..last), for the retry guard.
  std::uint32_t first_touched_line = 0;
  std::uint32_t last_touched_line = 0;
};

struct PlanContext {
  explicit PlanContext(const TextState& text_state) : state(text_state) {}
  const TextState& state;
  Observation* observation = nullptr; // the session's, null when it never read the document
  LineHashCache* cache = nullptr;     // the live document's
  const Document* document = nullptr; // live buffers: for snapshots of read versions
  bool retry = false;
  std::string path; // for messages
  Tier default_tier = Tier::Block;
  std::uint32_t context_lines = 3;
};

Result<PlannedEdit> planForm(const FormRequest& request, const PlanContext& context);

/// Completes a plan into a PlannedEdit (prediction, changed and touched lines).
PlannedEdit completePlan(EditPlan plan, const Rope& before, Tier tier);

} // namespace hashline::lsp
