// Three-way line merge; see three_way.h.
#include "engine/merge/three_way.h"

#include "engine/diff/line_diff.h"
#include "engine/text/chunk_compare.h"

#include <algorithm>
#include <cstdint>

namespace hashline::merge {

namespace {

using Lines = std::vector<std::string_view>;

/// Whether `region` (base lines) belongs to the cluster spanning base lines [begin, end).
bool overlaps(const DiffRegion& region, std::size_t begin, std::size_t end) {
  if (region.old_begin < end && begin < region.old_end) return true; // share a base line
  // Two insertions at one base line: their order is not decidable.
  return region.old_begin == region.old_end && begin == end && region.old_begin == begin;
}

std::size_t byteOfLine(const Lines& lines, std::string_view text, std::size_t line) {
  return line < lines.size() ? static_cast<std::size_t>(lines[line].data() - text.data())
                             : text.size();
}

std::string joinLines(const Lines& lines, LineRange range) {
  std::string out;
  for (std::size_t i = range.begin; i < range.end; ++i)
    out.append(lines[i]);
  return out;
}

/// One side's regions, consumed in order, with the line offset of that side after the last one.
struct SideCursor {
  const std::vector<DiffRegion>& regions;
  std::size_t next = 0;
  std::int64_t delta = 0; // (side line) - (base line) after the regions consumed so far

  bool has() const { return next < regions.size(); }
  const DiffRegion& peek() const { return regions[next]; }
  void take(std::size_t& begin, std::size_t& end, std::size_t& count) {
    const DiffRegion& region = regions[next++];
    begin = std::min(begin, region.old_begin);
    end = std::max(end, region.old_end);
    delta = static_cast<std::int64_t>(region.new_end) - static_cast<std::int64_t>(region.old_end);
    ++count;
  }
};

/// The merge of three whole texts, lines split and diffed from the first to the last.
MergeResult mergeLines(std::string_view base, std::string_view ours, std::string_view theirs) {
  MergeResult result;
  if (ours == theirs) return result;
  result.differs = true;
  const Lines base_lines = splitLinesKeepingEnds(base);
  const Lines our_lines = splitLinesKeepingEnds(ours);
  const Lines their_lines = splitLinesKeepingEnds(theirs);
  const std::vector<DiffRegion> our_regions = diffLines(base_lines, our_lines);
  const std::vector<DiffRegion> their_regions = diffLines(base_lines, their_lines);

  SideCursor our{our_regions};
  SideCursor their{their_regions};
  while (our.has() || their.has()) {
    const bool ours_first =
        !their.has() || (our.has() && our.peek().old_begin <= their.peek().old_begin);
    const DiffRegion& first = ours_first ? our.peek() : their.peek();
    std::size_t begin = first.old_begin;
    std::size_t end = first.old_end;
    const std::int64_t our_delta_before = our.delta;
    const std::int64_t their_delta_before = their.delta;
    std::size_t our_count = 0;
    std::size_t their_count = 0;
    (ours_first ? our : their).take(begin, end, ours_first ? our_count : their_count);
    // Grow the cluster while a region of either side overlaps it (a region may bridge two).
    for (bool grew = true; grew;) {
      grew = false;
      if (our.has() && overlaps(our.peek(), begin, end)) {
        our.take(begin, end, our_count);
        grew = true;
      }
      if (their.has() && overlaps(their.peek(), begin, end)) {
        their.take(begin, end, their_count);
        grew = true;
      }
    }
    if (their_count == 0) continue; // only the user changed it: ours already has it
    const LineRange base_range{begin, end};
    const LineRange our_range{static_cast<std::size_t>(begin + our_delta_before),
                              static_cast<std::size_t>(end + our.delta)};
    const LineRange their_range{static_cast<std::size_t>(begin + their_delta_before),
                                static_cast<std::size_t>(end + their.delta)};
    if (our_count == 0) {
      ByteEdit edit;
      edit.begin = byteOfLine(our_lines, ours, our_range.begin);
      edit.end = byteOfLine(our_lines, ours, our_range.end);
      edit.text = joinLines(their_lines, their_range);
      result.edits.push_back(std::move(edit));
      result.taken.push_back({base_range, our_range, their_range});
      continue;
    }
    std::string our_text = joinLines(our_lines, our_range);
    std::string their_text = joinLines(their_lines, their_range);
    if (our_text == their_text) continue; // both made the same change
    result.conflicts.push_back(
        {base_range, our_range, their_range, std::move(our_text), std::move(their_text)});
  }
  return result;
}

void shift(LineRange& range, std::size_t lines) {
  range.begin += lines;
  range.end += lines;
}

/// The merge of the differing middle: the lines all three texts share at the start and at the
/// end are cut off first (see three_way.h); `ours` is a sequence of chunks of `ours_size` bytes.
MergeResult mergeMiddle(std::string_view base, const Chunks& ours, std::size_t ours_size,
                        std::string_view theirs) {
  const Chunks base_chunks{base}, theirs_chunks{theirs};
  // The shared prefix, cut back to just after its last line break.
  std::size_t prefix =
      std::min(commonPrefix(base_chunks, ours), commonPrefix(base_chunks, theirs_chunks));
  const std::size_t last_break =
      prefix == 0 ? std::string_view::npos : base.rfind('\n', prefix - 1);
  prefix = last_break == std::string_view::npos ? 0 : last_break + 1;
  // The shared suffix (not reaching into the prefix), cut forward to just after its first line
  // break, so that it starts a line in all three texts.
  const std::size_t room = std::min({base.size(), ours_size, theirs.size()}) - prefix;
  std::size_t suffix = std::min(commonSuffix(base_chunks, ours, room),
                                commonSuffix(base_chunks, theirs_chunks, room));
  const std::size_t first_break = base.substr(base.size() - suffix).find('\n');
  suffix = first_break == std::string_view::npos ? 0 : suffix - first_break - 1;

  // Only the middle of ours becomes one string.
  std::string ours_middle;
  ours_middle.reserve(ours_size - suffix - prefix);
  std::size_t at = 0;
  for (std::string_view chunk : ours) {
    const std::size_t from = std::max(at, prefix),
                      to = std::min(at + chunk.size(), ours_size - suffix);
    if (from < to) ours_middle.append(chunk.substr(from - at, to - from));
    at += chunk.size();
  }
  MergeResult result = mergeLines(base.substr(prefix, base.size() - suffix - prefix), ours_middle,
                                  theirs.substr(prefix, theirs.size() - suffix - prefix));
  if (prefix == 0) return result;
  const auto lines = static_cast<std::size_t>(
      std::count(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(prefix), '\n'));
  for (ByteEdit& edit : result.edits) {
    edit.begin += prefix;
    edit.end += prefix;
  }
  for (TakenHunk& hunk : result.taken) {
    shift(hunk.base, lines);
    shift(hunk.ours, lines);
    shift(hunk.theirs, lines);
  }
  for (Conflict& conflict : result.conflicts) {
    shift(conflict.base, lines);
    shift(conflict.ours, lines);
    shift(conflict.theirs, lines);
  }
  return result;
}

} // namespace

MergeResult mergeThreeWay(std::string_view base, std::string_view ours, std::string_view theirs) {
  return mergeMiddle(base, Chunks{ours}, ours.size(), theirs);
}

MergeResult mergeThreeWay(std::string_view base, const Rope& ours, std::string_view theirs) {
  return mergeMiddle(base, chunksOf(ours), ours.byteSize(), theirs);
}

std::size_t mergedLine(const MergeResult& result, std::size_t ours_line) {
  std::int64_t line = static_cast<std::int64_t>(ours_line);
  for (const TakenHunk& hunk : result.taken) {
    if (hunk.ours.end > ours_line) break; // an insertion at `ours_line` goes above it
    line += static_cast<std::int64_t>(hunk.theirs.end - hunk.theirs.begin) -
            static_cast<std::int64_t>(hunk.ours.end - hunk.ours.begin);
  }
  return static_cast<std::size_t>(line);
}

} // namespace hashline::merge
