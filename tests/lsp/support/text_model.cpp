// TextModel: linear scans over a std::string, the obviously-correct reference.
#include "tests/lsp/support/text_model.h"

namespace hashline::test {

const char* unitsName(Units units) {
  switch (units) {
  case Units::Utf8:
    return "utf-8";
  case Units::Utf16:
    return "utf-16";
  case Units::Utf32:
    return "utf-32";
  }
  return "?";
}

std::size_t utf8SequenceLength(std::string_view text, std::size_t at) {
  unsigned char lead = static_cast<unsigned char>(text[at]);
  std::size_t length = lead < 0x80         ? 1
                       : (lead >> 5) == 6  ? 2
                       : (lead >> 4) == 14 ? 3
                       : (lead >> 3) == 30 ? 4
                                           : 1;
  if (length == 1 || at + length > text.size()) return 1;
  for (std::size_t i = 1; i < length; ++i)
    if ((static_cast<unsigned char>(text[at + i]) & 0xC0) != 0x80) return 1;
  // Overlong forms and surrogates are invalid: one unit per byte.
  std::uint32_t cp = length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07;
  for (std::size_t i = 1; i < length; ++i)
    cp = (cp << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3F);
  if ((length == 2 && cp < 0x80) || (length == 3 && cp < 0x800) ||
      (length == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
    return 1;
  return length;
}

namespace {
std::size_t unitsOf(std::size_t sequence_length, Units units) {
  switch (units) {
  case Units::Utf8:
    return sequence_length;
  case Units::Utf16:
    return sequence_length == 4 ? 2 : 1;
  case Units::Utf32:
    return 1;
  }
  return 1;
}
} // namespace

std::size_t TextModel::lineCount() const {
  std::size_t breaks = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n')
      ++breaks;
    else if (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))
      ++breaks;
  }
  return breaks + 1;
}

std::size_t TextModel::lineStartByte(std::size_t line) const {
  std::size_t at = 0;
  while (line > 0 && at < text.size()) {
    if (text[at] == '\n')
      --line;
    else if (text[at] == '\r' && (at + 1 >= text.size() || text[at + 1] != '\n'))
      --line;
    ++at;
  }
  return at;
}

std::size_t TextModel::lineEndByte(std::size_t line) const {
  std::size_t at = lineStartByte(line);
  while (at < text.size() && text[at] != '\n' && text[at] != '\r')
    ++at;
  return at;
}

std::size_t TextModel::byteOf(std::uint32_t line, std::uint32_t character, Units units) const {
  std::size_t at = lineStartByte(line), end = lineEndByte(line);
  std::size_t counted = 0;
  while (at < end && counted < character) {
    std::size_t length = utf8SequenceLength(text, at);
    counted += unitsOf(length, units);
    at += length;
  }
  return at;
}

std::pair<std::uint32_t, std::uint32_t> TextModel::positionOf(std::size_t byte, Units units) const {
  std::uint32_t line = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < byte; ++i) {
    bool is_break =
        text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'));
    if (is_break) {
      ++line;
      start = i + 1;
    }
  }
  std::uint32_t character = 0;
  for (std::size_t at = start; at < byte;) {
    std::size_t length = utf8SequenceLength(text, at);
    character += static_cast<std::uint32_t>(unitsOf(length, units));
    at += length;
  }
  return {line, character};
}

void TextModel::replace(std::size_t begin, std::size_t end, std::string_view replacement) {
  text.replace(begin, end - begin, replacement);
}

nlohmann::json TextModel::rangeChange(std::size_t begin, std::size_t end,
                                      std::string_view replacement, Units units) const {
  auto [start_line, start_character] = positionOf(begin, units);
  auto [end_line, end_character] = positionOf(end, units);
  return {{"range",
           {{"start", {{"line", start_line}, {"character", start_character}}},
            {"end", {{"line", end_line}, {"character", end_character}}}}},
          {"text", std::string(replacement)}};
}

} // namespace hashline::test
