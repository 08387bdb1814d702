// Folding for the matching ladders; see text_fold.h. The compatibility table is generated
// (fold_table_gen.py → fold_table.inc); typographic folds are layered on top here.
#include "engine/forms/text_fold.h"

#include <algorithm>
#include <utility>

namespace hashline::forms {
namespace {

struct RawFold {
  char32_t code_point;
  const char* nfkd;
};

constexpr RawFold kRawFolds[] = {
#include "engine/forms/fold_table.inc"
};

// Typographic folds applied to single code points (and to the output of the NFKD table).
std::string_view typographicFold(char32_t cp) {
  if ((cp >= 0x2010 && cp <= 0x2015) || cp == 0x2212 || cp == 0xFE58 || cp == 0xFE63) return "-";
  if (cp >= 0x2018 && cp <= 0x201B) return "'";
  if (cp >= 0x201C && cp <= 0x201F) return "\"";
  if (cp == 0x2026) return "...";
  if (cp != ' ' && cp != '\t' && cp != '\n' && cp != '\r' && cp != 0x0B && cp != 0x0C &&
      cp != 0x85 && cp != 0x2028 && cp != 0x2029 && isUnicodeSpace(cp))
    return " ";
  return {};
}

using FoldEntry = std::pair<char32_t, std::string>;

const std::vector<FoldEntry>& foldTable() {
  static const std::vector<FoldEntry> table = [] {
    std::vector<FoldEntry> out;
    for (const RawFold& raw : kRawFolds) {
      std::string_view nfkd(raw.nfkd);
      std::string folded;
      for (std::size_t i = 0; i < nfkd.size();) {
        char32_t cp = decodeUtf8(nfkd, i);
        std::string_view typo = typographicFold(cp);
        if (!typo.empty())
          folded += typo;
        else
          appendUtf8(folded, cp);
      }
      out.emplace_back(raw.code_point, std::move(folded));
    }
    // Typographic folds of code points the table does not cover (e.g. U+2018).
    for (char32_t cp : {0x2010, 0x2012, 0x2013, 0x2014, 0x2015, 0x2018, 0x2019, 0x201A, 0x201B,
                        0x201C, 0x201D, 0x201E, 0x201F, 0x2212, 0x1680, 0x205F, 0x202F}) {
      bool present = std::any_of(out.begin(), out.end(), [&](const FoldEntry& e) {
        return e.first == static_cast<char32_t>(cp);
      });
      if (!present) out.emplace_back(cp, std::string(typographicFold(cp)));
    }
    std::sort(out.begin(), out.end(),
              [](const FoldEntry& a, const FoldEntry& b) { return a.first < b.first; });
    return out;
  }();
  return table;
}

bool isLineBreakByte(char c) {
  return c == '\n' || c == '\r';
}

// Appends the folded/normalized form of original[begin, end) (one unit) with its origin.
void emitUnit(FoldedText& out, std::string_view piece, std::size_t begin, std::size_t end) {
  for (std::size_t k = 0; k < piece.size(); ++k) {
    out.text.push_back(piece[k]);
    out.origin_begin.push_back(begin);
    out.origin_end.push_back(end);
    out.unit_start.push_back(k == 0);
    out.unit_end.push_back(k + 1 == piece.size());
  }
}

} // namespace

char32_t decodeUtf8(std::string_view text, std::size_t& byte) {
  const auto lead = static_cast<unsigned char>(text[byte]);
  auto invalid = [&] {
    ++byte;
    return static_cast<char32_t>(0xDC00 + lead);
  };
  if (lead < 0x80) {
    ++byte;
    return lead;
  }
  int length = 0;
  char32_t cp = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    cp = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    cp = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    cp = lead & 0x07;
  } else {
    return invalid();
  }
  if (byte + length > text.size()) return invalid();
  for (int k = 1; k < length; ++k) {
    const auto cont = static_cast<unsigned char>(text[byte + k]);
    if ((cont & 0xC0) != 0x80) return invalid();
    cp = (cp << 6) | (cont & 0x3F);
  }
  const char32_t min_for_length[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min_for_length[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return invalid();
  byte += length;
  return cp;
}

void appendUtf8(std::string& out, char32_t cp) {
  if (cp >= 0xDC80 && cp <= 0xDCFF) { // an invalid byte carried through decodeUtf8
    out.push_back(static_cast<char>(cp - 0xDC00));
  } else if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool isUnicodeSpace(char32_t cp) {
  switch (cp) {
  case ' ':
  case '\t':
  case '\n':
  case 0x0B:
  case 0x0C:
  case '\r':
  case 0x85:
  case 0xA0:
  case 0x1680:
  case 0x2028:
  case 0x2029:
  case 0x202F:
  case 0x205F:
  case 0x3000:
    return true;
  default:
    return cp >= 0x2000 && cp <= 0x200A;
  }
}

std::string_view foldCodePoint(char32_t cp) {
  if (cp < 0x80) return {};
  const auto& table = foldTable();
  auto it = std::lower_bound(table.begin(), table.end(), cp,
                             [](const FoldEntry& e, char32_t value) { return e.first < value; });
  if (it != table.end() && it->first == cp) return it->second;
  return typographicFold(cp);
}

std::string foldString(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t begin = i;
    char32_t cp = decodeUtf8(text, i);
    std::string_view folded = foldCodePoint(cp);
    if (folded.empty())
      out.append(text.substr(begin, i - begin));
    else
      out.append(folded);
  }
  return out;
}

namespace {

// Byte length of the whitespace run at the end of `text` (Unicode White_Space, whole code
// points only).
std::size_t trailingSpaceBytes(std::string_view text) {
  std::size_t keep = 0;
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = decodeUtf8(text, i);
    if (!isUnicodeSpace(cp)) keep = i;
  }
  return text.size() - keep;
}

std::size_t leadingSpaceBytes(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t begin = i;
    char32_t cp = decodeUtf8(text, i);
    if (!isUnicodeSpace(cp)) return begin;
  }
  return text.size();
}

} // namespace

std::string_view trimEndUnicode(std::string_view text) {
  return text.substr(0, text.size() - trailingSpaceBytes(text));
}

std::string_view trimUnicode(std::string_view text) {
  text = trimEndUnicode(text);
  return text.substr(leadingSpaceBytes(text));
}

FoldedText foldText(std::string_view original, FoldLevel level, std::size_t skip_prefix_bytes) {
  FoldedText out;
  out.text.reserve(original.size());
  out.origin_begin.reserve(original.size());
  out.origin_end.reserve(original.size());
  std::size_t i = std::min(skip_prefix_bytes, original.size());
  while (i < original.size()) {
    // One line's content [i, content_end), then its break [content_end, break_end).
    std::size_t content_end = i;
    while (content_end < original.size() && !isLineBreakByte(original[content_end]))
      ++content_end;
    std::size_t break_end = content_end;
    if (break_end < original.size()) {
      if (original[break_end] == '\r' && break_end + 1 < original.size() &&
          original[break_end + 1] == '\n')
        break_end += 2;
      else
        break_end += 1;
    }
    std::string_view content = original.substr(i, content_end - i);
    if (level != FoldLevel::LineEndings) content = trimEndUnicode(content);
    for (std::size_t k = 0; k < content.size();) {
      std::size_t begin = k;
      char32_t cp = decodeUtf8(content, k);
      std::string_view folded =
          level == FoldLevel::Compatibility ? foldCodePoint(cp) : std::string_view{};
      if (folded.empty()) folded = content.substr(begin, k - begin);
      emitUnit(out, folded, i + begin, i + k);
    }
    if (break_end > content_end) emitUnit(out, "\n", content_end, break_end);
    i = break_end;
  }
  return out;
}

std::string foldNeedle(std::string_view needle, FoldLevel level) {
  return foldText(needle, level).text;
}

std::string looseLineKey(std::string_view line) {
  return foldString(trimUnicode(line));
}

} // namespace hashline::forms
