// Three-way line merge; see three_way.h.
#include "engine/merge/three_way.h"

#include "engine/diff/line_diff.h"
#include "engine/text/chunk_compare.h"
#include "engine/text/flat_lines.h"

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

/// One side (ours or theirs) against base, costing O(change): the bytes it shares with base at
/// the start and at the end (whole lines) are found chunk by chunk and never copied; only its
/// middle becomes a string, is split into lines and is diffed against base's middle. Base's
/// other lines are read through its block index (FlatLines), never split into a list. Its lines
/// are views: into base outside the middle, into `middle_` inside. Not movable (views point into
/// `middle_`).
class SideText {
public:
  SideText(const FlatLines& base, std::string_view base_text, const Chunks& chunks,
           std::size_t size)
      : base_(base), size_(size), base_size_(base_text.size()) {
    const Chunks base_chunks{base_text};
    // The shared prefix, cut back to just after its last line break; the shared suffix (not
    // reaching into it), cut forward to just after its first line break. Both are whole lines
    // of base, and of this side, at the same offsets from its start and end.
    std::size_t prefix = commonPrefix(base_chunks, chunks);
    const std::size_t last_break =
        prefix == 0 ? std::string_view::npos : base_text.rfind('\n', prefix - 1);
    prefix = last_break == std::string_view::npos ? 0 : last_break + 1;
    std::size_t suffix =
        commonSuffix(base_chunks, chunks, std::min(base_text.size(), size) - prefix);
    const std::size_t first_break = base_text.substr(base_text.size() - suffix).find('\n');
    suffix = first_break == std::string_view::npos ? 0 : suffix - first_break - 1;
    prefix_bytes_ = prefix;
    first_ = base.linesBefore(prefix);
    resume_ = base.linesBefore(base_text.size() - suffix);

    middle_.reserve(size - suffix - prefix);
    std::size_t at = 0;
    for (std::string_view chunk : chunks) {
      const std::size_t from = std::max(at, prefix),
                        to = std::min(at + chunk.size(), size - suffix);
      if (from < to) middle_.append(chunk.substr(from - at, to - from));
      at += chunk.size();
    }
    middle_lines_ = splitLinesKeepingEnds(middle_);
    const std::size_t base_middle_begin = base.lineStart(first_);
    const Lines base_middle = splitLinesKeepingEnds(
        base_text.substr(base_middle_begin, base.lineStart(resume_) - base_middle_begin));
    regions_ = diffLines(base_middle, middle_lines_);
    for (DiffRegion& region : regions_) {
      region.old_begin += first_;
      region.old_end += first_;
      region.new_begin += first_;
      region.new_end += first_;
    }
  }
  SideText(const SideText&) = delete;
  SideText& operator=(const SideText&) = delete;

  /// The changed regions against base, in whole-text line numbers.
  const std::vector<DiffRegion>& regions() const { return regions_; }

  std::string_view line(std::size_t index) const {
    if (index < first_) return base_.line(index);
    if (index < first_ + middle_lines_.size()) return middle_lines_[index - first_];
    return base_.line(baseLineAfterMiddle(index));
  }

  /// The byte offset of line `index` in this side (its size past the last line).
  std::size_t byteOf(std::size_t index) const {
    const std::size_t middle_end = first_ + middle_lines_.size();
    const std::size_t count = middle_end + base_.size() - resume_;
    if (index >= count) return size_;
    if (index < first_) return base_.lineStart(index);
    if (index < middle_end)
      return prefix_bytes_ +
             static_cast<std::size_t>(middle_lines_[index - first_].data() - middle_.data());
    return size_ - (base_size_ - base_.lineStart(baseLineAfterMiddle(index)));
  }

  std::string join(LineRange range) const {
    std::string out;
    for (std::size_t i = range.begin; i < range.end; ++i)
      out.append(line(i));
    return out;
  }

private:
  /// The base line that is line `index` (past the middle) of this side.
  std::size_t baseLineAfterMiddle(std::size_t index) const {
    return index - first_ - middle_lines_.size() + resume_;
  }

  const FlatLines& base_;
  std::size_t size_ = 0;
  std::size_t base_size_ = 0;
  std::size_t prefix_bytes_ = 0;
  std::size_t first_ = 0;  // lines [0, first_) are base's
  std::size_t resume_ = 0; // base line where the shared suffix starts
  std::string middle_;
  Lines middle_lines_;
  std::vector<DiffRegion> regions_;
};

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

/// The merge, with ours as a sequence of chunks of `ours_size` bytes.
MergeResult mergeSides(std::string_view base, const Chunks& ours, std::size_t ours_size,
                       std::string_view theirs) {
  MergeResult result;
  const Chunks theirs_chunks{theirs};
  if (ours_size == theirs.size() && commonPrefix(ours, theirs_chunks) == ours_size) return result;
  result.differs = true;
  const FlatLines base_lines(base);
  const SideText our_side(base_lines, base, ours, ours_size);
  const SideText their_side(base_lines, base, theirs_chunks, theirs.size());

  SideCursor our{our_side.regions()};
  SideCursor their{their_side.regions()};
  while (our.has() || their.has()) {
    // In base order; at one base line an insertion (empty old range) comes before a change of
    // the lines from there, which it only touches: the change's cluster must not swallow it
    // and leave it to be placed after the deltas moved on.
    const auto before = [](const DiffRegion& a, const DiffRegion& b) {
      return a.old_begin != b.old_begin ? a.old_begin < b.old_begin : a.old_end <= b.old_end;
    };
    const bool ours_first = !their.has() || (our.has() && before(our.peek(), their.peek()));
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
      edit.begin = our_side.byteOf(our_range.begin);
      edit.end = our_side.byteOf(our_range.end);
      edit.text = their_side.join(their_range);
      result.edits.push_back(std::move(edit));
      result.taken.push_back({base_range, our_range, their_range});
      continue;
    }
    std::string our_text = our_side.join(our_range);
    std::string their_text = their_side.join(their_range);
    if (our_text == their_text) continue; // both made the same change
    result.conflicts.push_back(
        {base_range, our_range, their_range, std::move(our_text), std::move(their_text)});
  }
  return result;
}

} // namespace

MergeResult mergeThreeWay(std::string_view base, std::string_view ours, std::string_view theirs) {
  return mergeSides(base, Chunks{ours}, ours.size(), theirs);
}

MergeResult mergeThreeWay(std::string_view base, const Rope& ours, std::string_view theirs) {
  return mergeSides(base, chunksOf(ours), ours.byteSize(), theirs);
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
