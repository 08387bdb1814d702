// The edit that puts Claude Code's proposal for a file (openDiff) into the editor's buffer for
// review (issue 30; docs/claude-ide.md).
//
// Claude Code computes the proposal from the disk text it read (`base`); the buffer may hold the
// user's unsaved typing. engine/merge merges the two: regions only Claude changed are taken;
// regions both changed — the proposal overlapping the user's typing — are conflicts, and there
// Claude's lines replace the user's in the buffer too, so that the review's hunk shows both sides
// (the hunk's old text is the user's lines, its new text Claude's): Keep takes Claude's, Reject
// puts the user's back, or the user edits them. Nothing is decided here. Pure.
#pragma once

#include "engine/merge/three_way.h"
#include "engine/plan/edit_plan.h"
#include "engine/text/rope.h"

#include <string_view>
#include <vector>

namespace hashline::lsp {

struct DiffProposalPlan {
  std::vector<ByteEdit> edits; // on the buffer: sorted, non-overlapping
  /// The regions where the proposal overlaps the user's typing (their lines in the buffer as it
  /// was, 0-based), each also an edit above.
  std::vector<merge::Conflict> conflicts;
};

DiffProposalPlan planDiffProposal(std::string_view base, const Rope& buffer,
                                  std::string_view proposal);

} // namespace hashline::lsp
