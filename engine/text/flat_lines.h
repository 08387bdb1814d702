// The lines of a flat text, found without splitting it into a list.
//
// Splitting a multi-megabyte text into one view per line writes a list as large as a quarter of
// the text (100k lines: 1.6 MB of fresh memory, which on the benchmark VM costs ten times the
// split itself). A caller that needs only a few lines by number, and the line number of a few
// offsets — the three-way merge, whose work is O(change) — indexes the text in blocks instead:
// one counting pass stores the number of line breaks per block (a few hundred integers), and a
// lookup is a binary search over them plus a scan of one block.
//
// Lines end as splitLinesKeepingEnds (engine/diff/line_diff.h) ends them: after LF, after CRLF,
// or after a CR not followed by LF; "" has no lines, "a\n" one, "a\nb" two. Pure; the text must
// outlive the index.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace hashline {

class FlatLines {
public:
  static constexpr std::size_t kDefaultBlock = std::size_t(64) << 10;

  /// Indexes `text` in blocks of `block` bytes (a parameter for tests only).
  explicit FlatLines(std::string_view text, std::size_t block = kDefaultBlock);

  /// Number of lines.
  std::size_t size() const { return lines_; }

  /// The byte where line `index` starts; the text's size for index == size().
  std::size_t lineStart(std::size_t index) const;

  /// Line `index` (< size()), with its terminator.
  std::string_view line(std::size_t index) const {
    return text_.substr(lineStart(index), lineStart(index + 1) - lineStart(index));
  }

  /// The number of lines that end at or before `offset` — the index of the line starting at
  /// `offset` when it is a line start (size() at the text's end).
  std::size_t linesBefore(std::size_t offset) const;

private:
  /// Whether a line ends just after byte `at`.
  bool endsLine(std::size_t at) const;
  /// Line ends after bytes [from, to).
  std::size_t countEnds(std::size_t from, std::size_t to) const;

  std::string_view text_;
  std::size_t block_;
  std::vector<std::size_t> ends_before_; // line ends after bytes before block k, per k
  std::size_t lines_ = 0;
};

} // namespace hashline
