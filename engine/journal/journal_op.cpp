// JournalOp helpers: hunk ids and line counts; see journal_op.h.
#include "engine/journal/journal_op.h"

#include "engine/diff/line_diff.h"

#include <charconv>

namespace hashline::journal {

std::string_view hunkStateName(HunkState state) {
  switch (state) {
  case HunkState::Pending:
    return "pending";
  case HunkState::Accepted:
    return "accepted";
  case HunkState::Reverted:
    return "reverted";
  case HunkState::Decision:
    return "decision";
  }
  return "pending";
}

std::optional<HunkState> hunkStateFromName(std::string_view name) {
  for (HunkState state :
       {HunkState::Pending, HunkState::Accepted, HunkState::Reverted, HunkState::Decision})
    if (hunkStateName(state) == name) return state;
  return std::nullopt;
}

std::uint32_t JournalHunk::beforeLineCount() const {
  return static_cast<std::uint32_t>(splitLinesKeepingEnds(before_text).size());
}

std::uint32_t JournalHunk::afterLineCount() const {
  return static_cast<std::uint32_t>(splitLinesKeepingEnds(after_text).size());
}

namespace {

template <typename T> std::optional<T> parseNumber(std::string_view text) {
  T value{};
  if (text.empty()) return std::nullopt;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

} // namespace

std::optional<HunkRef> parseHunkRef(std::string_view text) {
  if (text.rfind("op", 0) == 0) text.remove_prefix(2);
  HunkRef ref;
  std::size_t hash = text.find('#');
  auto op = parseNumber<std::uint64_t>(text.substr(0, hash));
  if (!op || *op == 0) return std::nullopt;
  ref.op = *op;
  if (hash != std::string_view::npos) {
    auto hunk = parseNumber<std::uint32_t>(text.substr(hash + 1));
    if (!hunk || *hunk == 0) return std::nullopt;
    ref.hunk = *hunk;
  }
  return ref;
}

std::string formatHunkRef(HunkRef ref) {
  std::string text = std::to_string(ref.op);
  if (ref.hunk != 0) text += "#" + std::to_string(ref.hunk);
  return text;
}

bool JournalOp::inEffect() const {
  if (moveInEffect()) return true;
  for (const JournalHunk& h : hunks)
    if (h.state != HunkState::Reverted) return true;
  return false;
}

const JournalHunk* JournalOp::hunk(std::uint32_t index) const {
  for (const JournalHunk& h : hunks)
    if (h.index == index) return &h;
  return nullptr;
}

JournalHunk* JournalOp::hunk(std::uint32_t index) {
  for (JournalHunk& h : hunks)
    if (h.index == index) return &h;
  return nullptr;
}

} // namespace hashline::journal
