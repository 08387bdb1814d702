// Fuzzes the Rope (engine/text/rope.h) against a std::string model.
//
// The input is a program: each op byte picks replace / insert-repeated (to grow past several
// ~1 KiB chunks) / delete / keep a snapshot / query, with offsets and text taken from the
// following bytes; text pieces favour line breaks (LF, CR, CRLF halves), multi-byte and astral
// UTF-8 and invalid bytes, so splits inside CRLF and inside sequences are exercised. After
// every op the rope must equal the model (bytes, line breaks, line starts/ends, lineOfByte,
// slices) and keep its invariants; snapshots taken earlier must be unchanged at the end
// (persistence). Position conversions are checked against an independent decoder whenever the
// model is valid UTF-8 (invalid bytes are carried, but their unit count is the rope's choice).
#include "engine/text/rope.h"
#include "tests/fuzz/fuzz_target.h"

#include <string>
#include <utility>
#include <vector>

namespace {

using hashline::LspPosition;
using hashline::PositionEncoding;
using hashline::Rope;

constexpr std::string_view kPieces[] = {"\n",       "\r",   "\r\n", "a", "xyz", " ",
                                        "\t",       "é",    "中",   "😀", "𝒳",   "\xF0\x9F",
                                        "\x98\x80", "\xC3", "\xFF", "\0"};

std::string makeText(hashline::fuzz::ByteReader& input) {
  std::string text;
  std::size_t count = input.byte() % 12;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint8_t pick = input.byte();
    if (pick < 16 * 12) {
      std::string_view piece = kPieces[pick % 16];
      text.append(piece.data(), pick % 16 == 15 ? 1 : piece.size());
    } else {
      text += static_cast<char>(input.byte());
    }
  }
  return text;
}

bool isLineBreakAt(const std::string& s, std::size_t i) {
  return s[i] == '\n' || s[i] == '\r';
}

// Line starts of the model: LF, CRLF (once) and lone CR end a line.
std::vector<std::size_t> lineStarts(const std::string& s) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') continue;
    if (isLineBreakAt(s, i)) starts.push_back(i + 1);
  }
  return starts;
}

// Strict UTF-8: lengths of each code point, or empty when the text is not valid UTF-8.
bool strictUtf8(const std::string& s, std::vector<std::pair<std::size_t, std::size_t>>& points) {
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = s[i];
    std::size_t length = c < 0x80         ? 1
                         : (c >> 5) == 6  ? 2
                         : (c >> 4) == 14 ? 3
                         : (c >> 3) == 30 ? 4
                                          : 0;
    if (length == 0 || i + length > s.size()) return false;
    std::uint32_t cp = length == 1 ? c : c & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
      unsigned char cc = s[i + k];
      if ((cc >> 6) != 2) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    points.emplace_back(i, length);
    i += length;
  }
  return true;
}

void checkAgainstModel(const Rope& rope, const std::string& model,
                       hashline::fuzz::ByteReader& input) {
  FUZZ_CHECK(rope.byteSize() == model.size());
  FUZZ_CHECK(rope.checkInvariants());
  std::vector<std::size_t> starts = lineStarts(model);
  FUZZ_CHECK(rope.lineCount() == starts.size(),
             std::to_string(rope.lineCount()) + " vs " + std::to_string(starts.size()));
  // A few lines, chosen by the input.
  for (int probe = 0; probe < 3; ++probe) {
    std::size_t line = input.below(starts.size());
    std::size_t begin = starts[line];
    std::size_t with_break = line + 1 < starts.size() ? starts[line + 1] : model.size();
    std::size_t end = with_break;
    if (end > begin && model[end - 1] == '\n') --end;
    if (end > begin && model[end - 1] == '\r') --end;
    FUZZ_CHECK(rope.lineStartByte(line) == begin);
    FUZZ_CHECK(rope.lineEndByte(line) == end);
    FUZZ_CHECK(rope.lineEndWithBreakByte(line) == with_break);
    FUZZ_CHECK(rope.lineText(line) == model.substr(begin, end - begin));
    std::size_t byte = begin + input.below(with_break - begin + 1);
    FUZZ_CHECK(rope.lineOfByte(byte) ==
                   (byte == with_break && line + 1 < starts.size() ? line + 1 : line),
               "lineOfByte " + std::to_string(byte));
    std::size_t slice_begin = input.below(model.size() + 1);
    std::size_t slice_end = slice_begin + input.below(model.size() - slice_begin + 1);
    FUZZ_CHECK(rope.slice(slice_begin, slice_end) ==
               model.substr(slice_begin, slice_end - slice_begin));
  }
  std::vector<std::pair<std::size_t, std::size_t>> points;
  if (!strictUtf8(model, points)) return;
  // Every code point boundary: byte -> position -> byte in all three encodings.
  std::size_t line = 0;
  std::uint32_t u8 = 0, u16 = 0, u32 = 0;
  std::size_t stride = points.size() > 64 ? points.size() / 64 : 1;
  for (std::size_t i = 0; i <= points.size(); ++i) {
    std::size_t at = i < points.size() ? points[i].first : model.size();
    bool inside_crlf = at > 0 && at < model.size() && model[at - 1] == '\r' && model[at] == '\n';
    if (line + 1 < starts.size() && at == starts[line + 1]) {
      ++line;
      u8 = u16 = u32 = 0;
    }
    if (!inside_crlf && (i % stride == 0 || i == points.size())) {
      struct Case {
        PositionEncoding encoding;
        std::uint32_t units;
      };
      for (Case c : {Case{PositionEncoding::Utf8, u8}, Case{PositionEncoding::Utf16, u16},
                     Case{PositionEncoding::Utf32, u32}}) {
        LspPosition position = rope.positionOfByte(at, c.encoding);
        FUZZ_CHECK(position.line == line && position.character == c.units,
                   "positionOfByte " + std::to_string(at));
        auto back =
            rope.byteOfPosition(LspPosition{static_cast<std::uint32_t>(line), c.units}, c.encoding);
        FUZZ_CHECK(back && *back == at, "byteOfPosition " + std::to_string(at));
      }
    }
    if (i == points.size()) break;
    std::size_t length = points[i].second;
    bool is_break = model[at] == '\n' || model[at] == '\r';
    if (!is_break) {
      u8 += length;
      u16 += length == 4 ? 2 : 1;
      u32 += 1;
    }
  }
  // Past the end of a line clamps to its end; past the last line is a desync.
  std::size_t probe_line = input.below(starts.size());
  auto clamped = rope.byteOfPosition(LspPosition{static_cast<std::uint32_t>(probe_line), 1u << 30},
                                     PositionEncoding::Utf16);
  FUZZ_CHECK(clamped && *clamped == rope.lineEndByte(probe_line));
  auto beyond = rope.byteOfPosition(LspPosition{static_cast<std::uint32_t>(starts.size()), 0},
                                    PositionEncoding::Utf16);
  FUZZ_CHECK(!beyond);
}

} // namespace

HASHLINE_FUZZ_TARGET(rope) {
  hashline::fuzz::ByteReader input(data, size);
  std::string model;
  Rope rope;
  std::vector<std::pair<Rope, std::string>> snapshots;
  for (int op = 0; op < 64 && !input.empty(); ++op) {
    std::uint8_t kind = input.byte() % 6;
    std::size_t begin = input.below(model.size() + 1);
    std::size_t end = begin + input.below(model.size() - begin + 1);
    switch (kind) {
    case 0: // replace
    case 1: {
      std::string text = makeText(input);
      rope.replace(begin, end, text);
      model.replace(begin, end - begin, text);
      break;
    }
    case 2: { // insert a piece many times (grow across chunks)
      std::string text = makeText(input);
      std::size_t times = input.byte() * 8 + 1;
      std::string repeated;
      for (std::size_t i = 0; i < times && repeated.size() < 4096; ++i)
        repeated += text;
      rope.replace(begin, begin, repeated);
      model.insert(begin, repeated);
      break;
    }
    case 3: // delete
      rope.replace(begin, end, "");
      model.erase(begin, end - begin);
      break;
    case 4: // snapshot
      if (snapshots.size() < 8) snapshots.emplace_back(rope, model);
      break;
    case 5: { // rebuild from the string: both constructions must agree
      Rope fresh(model);
      FUZZ_CHECK(fresh.toString() == model && fresh.lineCount() == rope.lineCount());
      break;
    }
    }
    FUZZ_CHECK(rope.toString() == model, "after op " + std::to_string(op));
    checkAgainstModel(rope, model, input);
    if (model.size() > 24 * 1024) break;
  }
  for (const auto& [snapshot, text] : snapshots) {
    FUZZ_CHECK(snapshot.toString() == text, "an old version changed");
    FUZZ_CHECK(snapshot.checkInvariants());
  }
  Rope moved = std::move(rope);
  FUZZ_CHECK(rope.empty() && moved.toString() == model);
  return 0;
}
