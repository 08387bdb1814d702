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

/// The lines where a place of `hunk` may start or end: its first after-line, or for a pure
/// deletion its nearest neighbours (see locate).
template <class Visit> void keyLinesOf(const JournalHunk& hunk, Visit visit) {
  if (!hunk.after_text.empty()) {
    visit(splitLinesKeepingEnds(hunk.after_text).front()); // ends as locate splits it (CR too)
    return;
  }
  if (!hunk.context_before.empty()) visit(std::string_view(hunk.context_before.back()));
  if (!hunk.context_after.empty()) visit(std::string_view(hunk.context_after.front()));
}

} // namespace

HunkLocator::HunkLocator(const LineSource& lines, const std::vector<const JournalHunk*>& hunks)
    : lines_(lines) {
  index(hunks);
}

void HunkLocator::index(const std::vector<const JournalHunk*>& hunks) const {
  std::vector<std::pair<std::string_view, std::vector<std::uint32_t>*>> fresh; // new keys
  for (const JournalHunk* hunk : hunks)
    keyLinesOf(*hunk, [&](std::string_view key) {
      auto [it, inserted] = places_.try_emplace(key);
      if (inserted) fresh.emplace_back(key, &it->second);
    });
  if (fresh.empty()) return;
  // A line whose length no new key has is not hashed at all.
  std::vector<bool> short_lengths(256, false);
  std::vector<std::size_t> long_lengths;
  for (const auto& [key, places] : fresh) {
    if (key.size() < short_lengths.size())
      short_lengths[key.size()] = true;
    else
      long_lengths.push_back(key.size());
  }
  const bool all_fresh = fresh.size() == places_.size();
  std::uint32_t index = 0;
  lines_.forEachLine([&](std::string_view line) {
    const std::uint32_t at = index++;
    const std::size_t size = line.size();
    if (size < short_lengths.size()
            ? !short_lengths[size]
            : std::find(long_lengths.begin(), long_lengths.end(), size) == long_lengths.end())
      return;
    auto found = places_.find(line);
    if (found == places_.end()) return;
    // Only a key new to this pass (an older key already has all its places).
    if (!all_fresh && std::none_of(fresh.begin(), fresh.end(), [&](const auto& entry) {
          return entry.second == &found->second;
        }))
      return;
    found->second.push_back(at);
  });
}

const std::vector<std::uint32_t>& HunkLocator::placesOf(std::string_view line) const {
  static const std::vector<std::uint32_t> kNowhere;
  auto found = places_.find(line);
  return found == places_.end() ? kNowhere : found->second; // index() made every key
}

Result<std::uint32_t> HunkLocator::locate(const JournalHunk& hunk, HunkRef ref,
                                          std::string_view name) const {
  const LineSource& lines = lines_;
  index({&hunk}); // nothing to do for a hunk given to the constructor
  std::vector<std::string_view> wanted = splitLinesKeepingEnds(hunk.after_text);
  const std::size_t n = wanted.size();
  if (lines.size() < n) return conflict(hunk, ref, name, "its lines are no longer there");
  const auto& above = hunk.context_before;
  const auto& below = hunk.context_after;
  auto score = [&](std::size_t at) {
    int points = 0;
    bool above_full = true;
    for (std::size_t k = 0; k < above.size(); ++k) {
      if (at < k + 1 || !lines.lineIs(at - 1 - k, above[above.size() - 1 - k])) {
        above_full = false;
        break;
      }
      ++points;
    }
    if (above_full && hunk.context_reaches_start && at == above.size()) ++points;
    bool below_full = true;
    for (std::size_t k = 0; k < below.size(); ++k) {
      if (at + n + k >= lines.size() || !lines.lineIs(at + n + k, below[k])) {
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
    for (std::uint32_t at : placesOf(wanted[0]))
      if (at + n <= lines.size()) places.push_back(at);
  } else {
    if (!above.empty())
      for (std::uint32_t at : placesOf(above.back()))
        places.push_back(at + 1);
    if (!below.empty())
      for (std::uint32_t at : placesOf(below.front()))
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
      same = lines.lineIs(at + i, wanted[i]);
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
  const RopeLineSource lines(text);
  const std::size_t count = lines.size();
  const std::size_t at = hunk.after_line, n = wanted.size();
  if (at + n > count || at < above.size() || at + n + below.size() > count) return std::nullopt;
  if (hunk.context_reaches_start && at != above.size()) return std::nullopt;
  if (hunk.context_reaches_end && at + n + below.size() != count) return std::nullopt;
  for (std::size_t i = 0; i < n; ++i)
    if (!lines.lineIs(at + i, wanted[i])) return std::nullopt;
  for (std::size_t k = 0; k < above.size(); ++k)
    if (!lines.lineIs(at - above.size() + k, above[k])) return std::nullopt;
  for (std::size_t k = 0; k < below.size(); ++k)
    if (!lines.lineIs(at + n + k, below[k])) return std::nullopt;
  return static_cast<std::uint32_t>(at);
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
  std::vector<const JournalHunk*> hunks;
  for (const ReversalItem& item : items)
    hunks.push_back(item.hunk);
  const ViewLines source(lines);
  HunkLocator locator(source, hunks);
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
