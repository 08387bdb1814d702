// Block-indexed lines of a flat text; see flat_lines.h.
#include "engine/text/flat_lines.h"

#include <algorithm>
#include <cstring>

namespace hashline {

namespace {

/// LF bytes in [p, p + n): a branch-free loop the compiler vectorizes.
std::size_t countLineFeeds(const char* p, std::size_t n) {
  std::size_t count = 0;
  std::size_t at = 0;
  for (; at + 64 <= n; at += 64) {
    unsigned in_run = 0;
    for (std::size_t k = 0; k < 64; ++k)
      in_run += p[at + k] == '\n';
    count += in_run;
  }
  for (; at < n; ++at)
    count += p[at] == '\n';
  return count;
}

} // namespace

FlatLines::FlatLines(std::string_view text, std::size_t block)
    : text_(text), block_(std::max<std::size_t>(block, 1)) {
  const std::size_t blocks = (text.size() + block_ - 1) / block_;
  ends_before_.reserve(blocks + 1);
  std::size_t ends = 0;
  for (std::size_t from = 0; from < text.size(); from += block_) {
    ends_before_.push_back(ends);
    ends += countEnds(from, std::min(from + block_, text.size()));
  }
  ends_before_.push_back(ends);
  lines_ = ends + (text.empty() || endsLine(text.size() - 1) ? 0 : 1);
}

bool FlatLines::endsLine(std::size_t at) const {
  const char c = text_[at];
  return c == '\n' || (c == '\r' && (at + 1 == text_.size() || text_[at + 1] != '\n'));
}

std::size_t FlatLines::countEnds(std::size_t from, std::size_t to) const {
  const char* p = text_.data() + from;
  if (!std::memchr(p, '\r', to - from)) return countLineFeeds(p, to - from);
  std::size_t count = 0; // a CR: the exact rule, byte by byte
  for (std::size_t at = from; at < to; ++at)
    count += endsLine(at);
  return count;
}

std::size_t FlatLines::lineStart(std::size_t index) const {
  if (index == 0) return 0;
  if (index >= lines_) return text_.size();
  // The block holding the index-th line end: the last whose count before it is < index.
  const auto after = std::partition_point(ends_before_.begin(), ends_before_.end(),
                                          [&](std::size_t before) { return before < index; });
  const std::size_t k = static_cast<std::size_t>(after - ends_before_.begin()) - 1;
  std::size_t left = index - ends_before_[k];
  // From LF or CR to the next one (the index-th line end exists: index < size()).
  const char* const data = text_.data();
  for (std::size_t at = k * block_;; ++at) {
    const auto* lf = static_cast<const char*>(std::memchr(data + at, '\n', text_.size() - at));
    const std::size_t lf_at = lf ? static_cast<std::size_t>(lf - data) : text_.size();
    const auto* cr = static_cast<const char*>(std::memchr(data + at, '\r', lf_at - at));
    at = cr ? static_cast<std::size_t>(cr - data) : lf_at;
    if (endsLine(at) && --left == 0) return at + 1;
  }
}

std::size_t FlatLines::linesBefore(std::size_t offset) const {
  if (offset >= text_.size()) return lines_;
  const std::size_t k = offset / block_;
  return ends_before_[k] + countEnds(k * block_, offset);
}

} // namespace hashline
