// openDiff's proposal as edits on the live buffer; see ide_diff_plan.h.
#include "lsp/ide/ide_diff_plan.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace hashline::lsp {

namespace {

std::size_t lineOffset(const Rope& text, std::size_t line) {
  return line >= text.lineCount() ? text.byteSize() : text.lineStartByte(line);
}

} // namespace

DiffProposalPlan planDiffProposal(std::string_view base, const Rope& buffer,
                                  std::string_view proposal) {
  merge::MergeResult merged = merge::mergeThreeWay(base, buffer, proposal);
  DiffProposalPlan plan;
  plan.edits = std::move(merged.edits);
  for (merge::Conflict& conflict : merged.conflicts) {
    plan.edits.push_back({lineOffset(buffer, conflict.ours.begin),
                          lineOffset(buffer, conflict.ours.end), conflict.theirs_text});
    plan.conflicts.push_back(std::move(conflict));
  }
  std::sort(plan.edits.begin(), plan.edits.end(), [](const ByteEdit& a, const ByteEdit& b) {
    return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
  });
  return plan;
}

} // namespace hashline::lsp
