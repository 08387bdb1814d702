// Finding hunks by content and planning their reversal; see hunk_locator.h.
#include "engine/journal/hunk_locator.h"

#include "engine/diff/line_diff.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace hashline::journal {

namespace {

std::string lineSpan(std::uint32_t first0, std::uint32_t count) {
  if (count <= 1) return "line " + std::to_string(first0 + 1);
  return "lines " + std::to_string(first0 + 1) + "-" + std::to_string(first0 + count);
}

Error conflict(const JournalHunk& hunk, HunkRef ref, std::string_view name, std::string why) {
  std::uint32_t count = hunk.afterLineCount();
  std::string where = count == 0 ? "the deletion before line " + std::to_string(hunk.after_line + 1)
                                 : lineSpan(hunk.after_line, count);
  Error error = Error::make(ErrorCode::Conflict,
                            "hunk " + formatHunkRef(ref) + " of " + std::string(name) + " (" +
                                where + " as the op left them): " + why + "; nothing was written");
  error.data.path = std::string(name);
  for (std::uint32_t i = 0; i < std::max<std::uint32_t>(count, 1); ++i)
    error.data.candidate_lines.push_back(hunk.after_line + 1 + i);
  error.data.current_text = hunk.after_text;
  error.withHint("read the file: the lines the agent changed were edited since; revert by hand or "
                 "accept the hunk");
  return error;
}

} // namespace

HunkLocator::HunkLocator(const std::vector<std::string_view>& lines)
    : lines_(lines), next_(lines.size(), kNone) {
  first_.reserve(lines.size());
  // From the end, so each chain runs in ascending line order.
  for (std::size_t i = lines.size(); i-- > 0;) {
    auto [it, inserted] = first_.try_emplace(lines[i], static_cast<std::uint32_t>(i));
    if (!inserted) {
      next_[i] = it->second;
      it->second = static_cast<std::uint32_t>(i);
    }
  }
}

std::uint32_t HunkLocator::first(std::string_view line) const {
  auto it = first_.find(line);
  return it == first_.end() ? kNone : it->second;
}

Result<std::uint32_t> HunkLocator::locate(const JournalHunk& hunk, HunkRef ref,
                                          std::string_view name) const {
  const std::vector<std::string_view>& lines = lines_;
  std::vector<std::string_view> wanted = splitLinesKeepingEnds(hunk.after_text);
  const std::size_t n = wanted.size();
  if (lines.size() < n) return conflict(hunk, ref, name, "its lines are no longer there");
  const auto& above = hunk.context_before;
  const auto& below = hunk.context_after;
  auto score = [&](std::size_t at) {
    int points = 0;
    bool above_full = true;
    for (std::size_t k = 0; k < above.size(); ++k) {
      if (at < k + 1 || lines[at - 1 - k] != above[above.size() - 1 - k]) {
        above_full = false;
        break;
      }
      ++points;
    }
    if (above_full && hunk.context_reaches_start && at == above.size()) ++points;
    bool below_full = true;
    for (std::size_t k = 0; k < below.size(); ++k) {
      if (at + n + k >= lines.size() || lines[at + n + k] != below[k]) {
        below_full = false;
        break;
      }
      ++points;
    }
    if (below_full && hunk.context_reaches_end && at + n + below.size() == lines.size()) ++points;
    return points;
  };
  // The places to try, ascending (a scan's order, which breaks ties). A hunk with lines can only
  // start where its first line is. A pure deletion "matches" everywhere, but only a place next
  // to one of its neighbours (or at an end of the text it reached) can score, and a place that
  // scores nothing is refused anyway.
  std::vector<std::uint32_t> places;
  if (n > 0) {
    for (std::uint32_t at = first(wanted[0]); at != kNone; at = next_[at])
      if (at + n <= lines.size()) places.push_back(at);
  } else {
    if (!above.empty())
      for (std::uint32_t at = first(above.back()); at != kNone; at = next_[at])
        places.push_back(at + 1);
    if (!below.empty())
      for (std::uint32_t at = first(below.front()); at != kNone; at = next_[at])
        places.push_back(at);
    places.push_back(0);
    places.push_back(static_cast<std::uint32_t>(lines.size()));
    std::sort(places.begin(), places.end());
    places.erase(std::unique(places.begin(), places.end()), places.end());
  }
  int best_score = -1;
  std::size_t best_at = 0, candidates = 0;
  auto distance = [&](std::size_t at) {
    return at > hunk.after_line ? at - hunk.after_line : hunk.after_line - at;
  };
  for (std::size_t at : places) {
    bool same = true;
    for (std::size_t i = 1; i < n && same; ++i)
      same = lines[at + i] == wanted[i];
    if (!same) continue;
    ++candidates;
    int points = score(at);
    if (points > best_score || (points == best_score && distance(at) < distance(best_at))) {
      best_score = points;
      best_at = at;
    }
  }
  if (candidates == 0) return conflict(hunk, ref, name, "its lines were changed since");
  // Without a single matching neighbour the place is not provable (unless the hunk had no
  // neighbours at all: it was the whole file).
  bool had_neighbours =
      !above.empty() || !below.empty() || !hunk.context_reaches_start || !hunk.context_reaches_end;
  if (best_score <= 0 && (had_neighbours || n == 0))
    return conflict(hunk, ref, name, "the lines around it were changed since");
  return static_cast<std::uint32_t>(best_at);
}

std::optional<std::uint32_t> locateInPlace(const Rope& text, const JournalHunk& hunk) {
  const std::vector<std::string_view> wanted = splitLinesKeepingEnds(hunk.after_text);
  const auto& above = hunk.context_before;
  const auto& below = hunk.context_after;
  // A pure deletion without context scores nothing anywhere: locate() decides.
  if (wanted.empty() && above.empty() && below.empty()) return std::nullopt;
  // Lines as splitLinesKeepingEnds counts them: a final line break ends the last line.
  const std::size_t breaks = text.lineBreaks();
  const std::size_t count = text.empty()                                    ? 0
                            : text.lineStartByte(breaks) == text.byteSize() ? breaks
                                                                            : breaks + 1;
  auto line = [&](std::size_t index) {
    return text.slice(text.lineStartByte(index), text.lineEndWithBreakByte(index));
  };
  const std::size_t at = hunk.after_line, n = wanted.size();
  if (at + n > count || at < above.size() || at + n + below.size() > count) return std::nullopt;
  if (hunk.context_reaches_start && at != above.size()) return std::nullopt;
  if (hunk.context_reaches_end && at + n + below.size() != count) return std::nullopt;
  for (std::size_t i = 0; i < n; ++i)
    if (line(at + i) != wanted[i]) return std::nullopt;
  for (std::size_t k = 0; k < above.size(); ++k)
    if (line(at - above.size() + k) != above[k]) return std::nullopt;
  for (std::size_t k = 0; k < below.size(); ++k)
    if (line(at + n + k) != below[k]) return std::nullopt;
  return static_cast<std::uint32_t>(at);
}

Result<std::uint32_t> locateHunk(const std::vector<std::string_view>& lines,
                                 const JournalHunk& hunk, HunkRef ref, std::string_view name) {
  return HunkLocator(lines).locate(hunk, ref, name);
}

Result<Reversal> planReversal(std::string_view current, const std::vector<ReversalItem>& items,
                              std::string_view name) {
  std::vector<std::string_view> lines = splitLinesKeepingEnds(current);
  std::vector<std::size_t> starts(lines.size() + 1, 0);
  for (std::size_t i = 0; i < lines.size(); ++i)
    starts[i + 1] = starts[i] + lines[i].size();
  Reversal reversal;
  struct Placed {
    LocatedHunk where;
    const JournalHunk* hunk;
  };
  std::vector<Placed> placed;
  HunkLocator locator(lines);
  for (const ReversalItem& item : items) {
    Result<std::uint32_t> line = locator.locate(*item.hunk, item.ref, name);
    if (!line) return line.error();
    placed.push_back({{item.ref, *line, item.hunk->afterLineCount()}, item.hunk});
  }
  std::stable_sort(placed.begin(), placed.end(),
                   [](const Placed& a, const Placed& b) { return a.where.line < b.where.line; });
  for (std::size_t i = 1; i < placed.size(); ++i) {
    const LocatedHunk& prev = placed[i - 1].where;
    const LocatedHunk& next = placed[i].where;
    if (next.line < prev.line + prev.line_count ||
        (next.line == prev.line && (prev.line_count == 0) == (next.line_count == 0) &&
         prev.line_count == 0))
      return conflict(*placed[i].hunk, next.ref, name,
                      "it overlaps hunk " + formatHunkRef(prev.ref) + " where both are now");
  }
  for (const Placed& p : placed) {
    ByteEdit edit;
    edit.begin = starts[p.where.line];
    edit.end = starts[p.where.line + p.where.line_count];
    edit.text = p.hunk->before_text;
    reversal.edits.push_back(std::move(edit));
    reversal.located.push_back(p.where);
  }
  std::string text;
  std::size_t at = 0;
  for (const ByteEdit& edit : reversal.edits) {
    text.append(current.substr(at, edit.begin - at));
    text.append(edit.text);
    at = edit.end;
  }
  text.append(current.substr(at));
  reversal.text_after = std::move(text);
  return reversal;
}

} // namespace hashline::journal
