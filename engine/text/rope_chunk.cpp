// In-chunk UTF-8 decoding and conversions for the Rope (see rope_chunk.h).
#include "engine/text/rope_chunk.h"

#include "engine/support/utf8.h"

#include <bit>
#include <cstring>

namespace hashline::rope_detail {
namespace {

unsigned char byteAt(std::string_view text, std::size_t at) {
  return static_cast<unsigned char>(text[at]);
}

static_assert(std::endian::native == std::endian::little, "word scanning assumes little endian");

constexpr std::uint64_t kOnes = 0x0101010101010101ull;
constexpr std::uint64_t kHighs = 0x8080808080808080ull;
constexpr std::uint64_t kLows = 0x7F7F7F7F7F7F7F7Full;

std::uint64_t loadWord(const char* p) {
  std::uint64_t word;
  std::memcpy(&word, p, 8);
  return word;
}

bool isAsciiWord(std::uint64_t word) {
  return (word & kHighs) == 0;
}

/// The high bit of every byte of `word` that equals `c` (exact, no false positives).
std::uint64_t bytesEqual(std::uint64_t word, char c) {
  std::uint64_t x = word ^ (kOnes * static_cast<unsigned char>(c));
  return ~(((x & kLows) + kLows) | x) & kHighs;
}

/// How many bytes of a high-bits-only mask are set (portable: no popcnt instruction needed).
unsigned countMarked(std::uint64_t mask) {
  return static_cast<unsigned>(((mask >> 7) * kOnes) >> 56);
}

/// Line breaks ending in the 8 bytes at `at` (at + 8 <= chunk.size()): every LF, and every CR
/// not followed by an LF. A break is counted at its last byte, so a CRLF straddling two words
/// counts in the second.
[[gnu::always_inline]] inline unsigned breaksInWord(std::string_view chunk, std::size_t at) {
  const std::uint64_t word = loadWord(chunk.data() + at);
  const std::uint64_t lf = bytesEqual(word, '\n');
  const std::uint64_t cr = bytesEqual(word, '\r');
  if (cr == 0) return countMarked(lf);
  unsigned breaks = countMarked(lf) + countMarked(cr & ~(lf >> 8));
  if ((cr >> 63) && at + 8 < chunk.size() && chunk[at + 8] == '\n') --breaks;
  return breaks;
}

/// Whether byte `at` ends a line break (an LF, or a CR not followed by an LF).
bool endsBreak(std::string_view chunk, std::size_t at) {
  char c = chunk[at];
  if (c == '\n') return true;
  return c == '\r' && (at + 1 == chunk.size() || chunk[at + 1] != '\n');
}

} // namespace

Decoded decodeMultiByte(std::string_view text, std::size_t at) {
  const Utf8Sequence sequence = decodeUtf8Sequence(text, at);
  if (!sequence.valid()) return {1, 1};
  return {sequence.length, static_cast<std::uint8_t>(sequence.length == 4 ? 2 : 1)};
}

Metrics measure(std::string_view chunk) {
  Metrics metrics;
  metrics.bytes = chunk.size();
  const std::size_t size = chunk.size();
  std::size_t at = 0;
  while (at < size) {
    if (at + 8 <= size && isAsciiWord(loadWord(chunk.data() + at))) {
      metrics.breaks += breaksInWord(chunk, at);
      metrics.utf16 += 8;
      metrics.code_points += 8;
      at += 8;
      continue;
    }
    Decoded decoded = decodeAt(chunk, at);
    if (decoded.bytes == 1 && endsBreak(chunk, at)) ++metrics.breaks;
    metrics.utf16 += decoded.utf16;
    metrics.code_points += 1;
    at += decoded.bytes;
  }
  return metrics;
}

Metrics remeasure(std::string_view before, const Metrics& before_metrics, std::string_view after,
                  std::size_t begin, std::size_t before_end, std::size_t after_end) {
  // The window starts after an ASCII byte other than CR (nothing after it can change how it
  // counts) and ends before an ASCII byte other than LF (nothing before it can change how it
  // counts), so the bytes outside the window measure the same in both texts.
  constexpr std::size_t kReach = 8;
  std::size_t window_begin = begin;
  while (window_begin > 0) {
    unsigned char previous = byteAt(before, window_begin - 1);
    if (previous < 0x80 && previous != '\r') break;
    if (begin - window_begin == kReach) return measure(after);
    --window_begin;
  }
  std::size_t window_end = before_end;
  while (window_end < before.size()) {
    unsigned char next = byteAt(before, window_end);
    if (next < 0x80 && next != '\n') break;
    if (window_end - before_end == kReach) return measure(after);
    ++window_end;
  }
  const std::size_t after_window_end = window_end - before_end + after_end;
  Metrics metrics = before_metrics;
  metrics -= measure(before.substr(window_begin, window_end - window_begin));
  metrics += measure(after.substr(window_begin, after_window_end - window_begin));
  return metrics;
}

namespace {

/// The valid UTF-8 sequence of `text` that strictly contains offset `at` (0 < at < size): its
/// start, or npos. Such a sequence starts at the nearest non-continuation byte, <= 3 back.
std::size_t sequenceSpanning(std::string_view text, std::size_t at) {
  for (std::size_t back = 1; back <= 3 && back <= at; ++back) {
    std::size_t start = at - back;
    if (isContinuationByte(byteAt(text, start))) continue;
    if (start + decodeAt(text, start).bytes > at) return start;
    return std::string_view::npos;
  }
  return std::string_view::npos;
}

} // namespace

bool splitsUnit(std::string_view text, std::size_t at) {
  if (text[at - 1] == '\r' && text[at] == '\n') return true;
  return sequenceSpanning(text, at) != std::string_view::npos;
}

std::size_t safeSplitAtOrBefore(std::string_view text, std::size_t at) {
  if (text[at - 1] == '\r' && text[at] == '\n') return at - 1;
  std::size_t start = sequenceSpanning(text, at);
  return start == std::string_view::npos ? at : start;
}

bool seamJoins(std::string_view left, std::string_view right) {
  if (left.back() == '\r' && right.front() == '\n') return true;
  // A sequence crossing the seam starts in the last 3 bytes of `left`; join just those.
  char joined[8];
  std::size_t from_left = left.size() < 3 ? left.size() : 3;
  std::size_t from_right = right.size() < 3 ? right.size() : 3;
  std::memcpy(joined, left.data() + left.size() - from_left, from_left);
  std::memcpy(joined + from_left, right.data(), from_right);
  return splitsUnit(std::string_view(joined, from_left + from_right), from_left);
}

bool isCodePointBoundary(std::string_view chunk, std::size_t at) {
  if (at == 0 || at >= chunk.size()) return true;
  return sequenceSpanning(chunk, at) == std::string_view::npos;
}

std::size_t findBreakByte(std::string_view chunk, std::size_t from) {
  std::size_t at = from;
  for (; at + 8 <= chunk.size(); at += 8) {
    const std::uint64_t word = loadWord(chunk.data() + at);
    const std::uint64_t found = bytesEqual(word, '\n') | bytesEqual(word, '\r');
    if (found) return at + std::countr_zero(found) / 8;
  }
  for (; at < chunk.size(); ++at)
    if (chunk[at] == '\n' || chunk[at] == '\r') return at;
  return std::string_view::npos;
}

std::size_t breaksBefore(std::string_view chunk, std::size_t at) {
  std::size_t breaks = 0;
  std::size_t i = 0;
  for (; i + 8 <= at; i += 8)
    breaks += breaksInWord(chunk, i);
  for (; i < at; ++i)
    breaks += endsBreak(chunk, i);
  return breaks;
}

BreakSpan nthBreak(std::string_view chunk, std::size_t ordinal) {
  std::size_t seen = 0;
  std::size_t at = 0;
  for (; at + 8 <= chunk.size(); at += 8) {
    unsigned breaks = breaksInWord(chunk, at);
    if (seen + breaks >= ordinal) break;
    seen += breaks;
  }
  for (; at < chunk.size(); ++at) {
    if (!endsBreak(chunk, at)) continue;
    if (++seen < ordinal) continue;
    bool crlf = chunk[at] == '\n' && at > 0 && chunk[at - 1] == '\r';
    return {crlf ? at - 1 : at, at + 1};
  }
  return {chunk.size(), chunk.size()};
}

std::size_t unitsBefore(std::string_view chunk, std::size_t at, Unit unit) {
  std::size_t units = 0;
  std::size_t i = 0;
  while (i < at) {
    if (i + 8 <= at && isAsciiWord(loadWord(chunk.data() + i))) {
      units += 8;
      i += 8;
      continue;
    }
    Decoded decoded = decodeAt(chunk, i);
    units += unit == Unit::Utf16 ? decoded.utf16 : 1;
    i += decoded.bytes;
  }
  return units;
}

UnitHit byteOfUnits(std::string_view chunk, std::size_t units, Unit unit) {
  std::size_t seen = 0;
  std::size_t i = 0;
  while (seen < units && i < chunk.size()) {
    if (seen + 8 <= units && i + 8 <= chunk.size() && isAsciiWord(loadWord(chunk.data() + i))) {
      seen += 8;
      i += 8;
      continue;
    }
    Decoded decoded = decodeAt(chunk, i);
    std::size_t width = unit == Unit::Utf16 ? decoded.utf16 : 1;
    if (seen + width > units) return {i, true};
    seen += width;
    i += decoded.bytes;
  }
  return {i, false};
}

} // namespace hashline::rope_detail
