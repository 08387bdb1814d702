// Rewind planning, net and commit diffs; see rewind_planner.h.
#include "engine/journal/rewind_planner.h"

#include "engine/diff/line_diff.h"
#include "engine/diff/unified_diff.h"

#include <map>
#include <set>

namespace hashline::journal {

Result<RewindPlan> planRewind(std::string_view current, const std::vector<const JournalOp*>& ops,
                              std::string_view name) {
  // Which hunks are in effect, as the virtual reversal proceeds: (op, hunk) → reverted by.
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> reverted;
  std::map<std::uint64_t, const JournalOp*> by_id;
  for (const JournalOp* op : ops) {
    by_id[op->id] = op;
    for (const JournalHunk& hunk : op->hunks)
      if (hunk.state == HunkState::Reverted) reverted[{op->id, hunk.index}] = hunk.reverted_by;
    // A move's relocation is the pseudo-hunk {op, 0}.
    if (op->kind == "move" && op->move_reverted_by != 0)
      reverted[{op->id, 0}] = op->move_reverted_by;
  }
  RewindPlan plan;
  plan.text_after = std::string(current);
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    const JournalOp& op = **it;
    std::vector<ReversalItem> items;
    for (const JournalHunk& hunk : op.hunks)
      if (!reverted.count({op.id, hunk.index})) items.push_back({{op.id, hunk.index}, &hunk});
    if (!items.empty()) {
      // A deleted file comes back only where there is none: a file at its path now (recreated,
      // or another file moved there) is not the deleted one's remains.
      if (op.kind == "delete" && !plan.text_after.empty())
        return Error::make(ErrorCode::Conflict,
                           std::string(name) + " exists again since op " + std::to_string(op.id) +
                               " deleted it; its old content cannot be recreated over it")
            .withHint("move or remove the file now at that path first, or leave the op in place");
      Result<Reversal> reversal = planReversal(plan.text_after, items, name);
      if (!reversal) return reversal.error();
      plan.text_after = std::move(reversal->text_after);
      for (const ReversalItem& item : items) {
        reverted[{op.id, item.ref.hunk}] = 0;
        plan.reverts.push_back(item.ref);
      }
    }
    // A move in effect is reverted whole (`{op, 0}`): the caller moves the file back.
    if (op.kind == "move" && !reverted.count({op.id, 0})) {
      reverted[{op.id, 0}] = 0;
      plan.reverts.push_back({op.id, 0});
    }
    // This op is now wholly reversed: what it had reverted (in the set) is in effect again.
    for (const HunkRef& undone : op.reverts) {
      auto original = by_id.find(undone.op);
      if (original == by_id.end()) continue;
      for (const JournalHunk& hunk : original->second->hunks) {
        if (undone.hunk != 0 && hunk.index != undone.hunk) continue;
        auto state = reverted.find({undone.op, hunk.index});
        if (state != reverted.end() && state->second == op.id) reverted.erase(state);
      }
      if (undone.hunk == 0 && original->second->kind == "move") {
        auto state = reverted.find({undone.op, 0});
        if (state != reverted.end() && state->second == op.id) reverted.erase(state);
      }
    }
  }
  return plan;
}

Result<std::string> netDiff(std::string_view current, const std::vector<const JournalOp*>& ops,
                            std::string_view name) {
  Result<RewindPlan> rewound = planRewind(current, ops, name);
  if (!rewound) return rewound.error();
  UnifiedDiffOptions options;
  options.old_label = "a/" + std::string(name);
  options.new_label = "b/" + std::string(name);
  return unifiedDiff(rewound->text_after, current, options);
}

namespace {

void appendLine(std::string& out, char sign, std::string_view line) {
  out += sign;
  bool terminated = !line.empty() && (line.back() == '\n' || line.back() == '\r');
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  out.append(line);
  out += '\n';
  if (!terminated) out += "\\ No newline at end of file\n";
}

std::string range(std::size_t first0, std::size_t count) {
  // GNU style: an empty side is numbered by the line before it.
  std::size_t start = count == 0 ? first0 : first0 + 1;
  return count == 1 ? std::to_string(start) : std::to_string(start) + "," + std::to_string(count);
}

} // namespace

std::string commitDiff(const JournalOp& op) {
  if (op.hunks.empty()) return {};
  std::string out = "--- a/" + op.name + "\n+++ b/" + op.name + "\n";
  for (const JournalHunk& hunk : op.hunks) {
    std::vector<std::string_view> old_lines = splitLinesKeepingEnds(hunk.before_text);
    std::vector<std::string_view> new_lines = splitLinesKeepingEnds(hunk.after_text);
    std::size_t above = hunk.context_before.size(), below = hunk.context_after.size();
    std::size_t old_first = hunk.before_line >= above ? hunk.before_line - above : 0;
    std::size_t new_first = hunk.after_line >= above ? hunk.after_line - above : 0;
    out += "@@ -" + range(old_first, above + old_lines.size() + below) + " +" +
           range(new_first, above + new_lines.size() + below) + " @@ " +
           formatHunkRef({op.id, hunk.index}) + " " + std::string(hunkStateName(hunk.state)) + "\n";
    for (const std::string& line : hunk.context_before)
      appendLine(out, ' ', line);
    for (std::string_view line : old_lines)
      appendLine(out, '-', line);
    for (std::string_view line : new_lines)
      appendLine(out, '+', line);
    for (const std::string& line : hunk.context_after)
      appendLine(out, ' ', line);
  }
  return out;
}

} // namespace hashline::journal
