// In-chunk UTF-8 decoding and conversions for the Rope (see rope_chunk.h).
#include "engine/text/rope_chunk.h"

#include <cstring>

namespace hashline::rope_detail {
namespace {

unsigned char byteAt(std::string_view text, std::size_t at) {
  return static_cast<unsigned char>(text[at]);
}

bool inRange(std::string_view text, std::size_t at, unsigned char low, unsigned char high) {
  if (at >= text.size()) return false;
  unsigned char byte = byteAt(text, at);
  return byte >= low && byte <= high;
}

/// Whether the 8 bytes at `p` are all ASCII.
bool eightAscii(const char* p) {
  std::uint64_t word;
  std::memcpy(&word, p, 8);
  return (word & 0x8080808080808080ull) == 0;
}

/// Whether the 8 bytes at `p` hold no CR and no LF.
bool eightWithoutBreaks(const char* p) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kHighs = 0x8080808080808080ull;
  std::uint64_t word;
  std::memcpy(&word, p, 8);
  std::uint64_t lf = word ^ (kOnes * '\n');
  std::uint64_t cr = word ^ (kOnes * '\r');
  // The classic "has a zero byte" test, exact as a yes/no answer.
  std::uint64_t has_lf = (lf - kOnes) & ~lf & kHighs;
  std::uint64_t has_cr = (cr - kOnes) & ~cr & kHighs;
  return (has_lf | has_cr) == 0;
}

} // namespace

Decoded decodeMultiByte(std::string_view text, std::size_t at) {
  unsigned char lead = byteAt(text, at);
  if (lead >= 0xC2 && lead <= 0xDF) {
    if (inRange(text, at + 1, 0x80, 0xBF)) return {2, 1};
    return {1, 1};
  }
  if (lead >= 0xE0 && lead <= 0xEF) {
    unsigned char low = lead == 0xE0 ? 0xA0 : 0x80;
    unsigned char high = lead == 0xED ? 0x9F : 0xBF;
    if (inRange(text, at + 1, low, high) && inRange(text, at + 2, 0x80, 0xBF)) return {3, 1};
    return {1, 1};
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    unsigned char low = lead == 0xF0 ? 0x90 : 0x80;
    unsigned char high = lead == 0xF4 ? 0x8F : 0xBF;
    if (inRange(text, at + 1, low, high) && inRange(text, at + 2, 0x80, 0xBF) &&
        inRange(text, at + 3, 0x80, 0xBF))
      return {4, 2};
    return {1, 1};
  }
  return {1, 1};
}

Metrics measure(std::string_view chunk) {
  Metrics metrics;
  metrics.bytes = chunk.size();
  const std::size_t size = chunk.size();
  std::size_t at = 0;
  while (at < size) {
    if (at + 8 <= size && eightAscii(chunk.data() + at)) {
      for (std::size_t i = 0; i < 8; ++i) {
        char c = chunk[at + i];
        if (c == '\n') {
          ++metrics.breaks;
        } else if (c == '\r') {
          if (at + i + 1 >= size || chunk[at + i + 1] != '\n') ++metrics.breaks;
        }
      }
      metrics.utf16 += 8;
      metrics.code_points += 8;
      at += 8;
      continue;
    }
    char c = chunk[at];
    if (c == '\n') {
      ++metrics.breaks;
    } else if (c == '\r') {
      if (at + 1 >= size || chunk[at + 1] != '\n') ++metrics.breaks;
    }
    Decoded decoded = decodeAt(chunk, at);
    metrics.utf16 += decoded.utf16;
    metrics.code_points += 1;
    at += decoded.bytes;
  }
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

std::size_t breaksBefore(std::string_view chunk, std::size_t at) {
  std::size_t breaks = 0;
  for (std::size_t i = 0; i < at; ++i) {
    if (i + 8 <= at && eightWithoutBreaks(chunk.data() + i)) {
      i += 7;
      continue;
    }
    char c = chunk[i];
    if (c == '\n') {
      ++breaks;
    } else if (c == '\r') {
      // A CR followed by LF ends with the LF; a lone CR ends right after itself.
      bool crlf = i + 1 < chunk.size() && chunk[i + 1] == '\n';
      if (!crlf) ++breaks;
    }
  }
  return breaks;
}

BreakSpan nthBreak(std::string_view chunk, std::size_t ordinal) {
  std::size_t seen = 0;
  const char* data = chunk.data();
  std::size_t at = 0;
  while (at < chunk.size()) {
    if (at + 8 <= chunk.size() && eightWithoutBreaks(data + at)) {
      at += 8;
      continue;
    }
    char c = data[at];
    if (c != '\n' && c != '\r') {
      ++at;
      continue;
    }
    std::size_t end = at + 1;
    if (c == '\r' && end < chunk.size() && data[end] == '\n') ++end;
    if (++seen == ordinal) return {at, end};
    at = end;
  }
  return {chunk.size(), chunk.size()};
}

std::size_t unitsBefore(std::string_view chunk, std::size_t at, Unit unit) {
  std::size_t units = 0;
  std::size_t i = 0;
  while (i < at) {
    if (i + 8 <= at && eightAscii(chunk.data() + i)) {
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
    if (seen + 8 <= units && i + 8 <= chunk.size() && eightAscii(chunk.data() + i)) {
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
