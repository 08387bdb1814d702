// Folding for the matching ladders; see text_fold.h. The compatibility table is generated
// (fold_table_gen.py → fold_table.inc); typographic folds are layered on top here.
#include "engine/forms/text_fold.h"

#include "engine/support/utf8.h"

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

} // namespace

char32_t decodeUtf8(std::string_view text, std::size_t& byte) {
  const Utf8Sequence sequence = decodeUtf8Sequence(text, byte);
  if (!sequence.valid()) // carried as a lone surrogate U+DC80..U+DCFF (appendUtf8 restores it)
    return static_cast<char32_t>(0xDC00 + static_cast<unsigned char>(text[byte++]));
  byte += sequence.length;
  return sequence.code_point;
}

void appendUtf8(std::string& out, char32_t cp) {
  if (cp >= 0xDC80 && cp <= 0xDCFF) // an invalid byte carried through decodeUtf8
    out.push_back(static_cast<char>(cp - 0xDC00));
  else
    appendUtf8CodePoint(out, cp);
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

static bool isAscii(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

std::string foldString(std::string_view text) {
  if (isAscii(text)) return std::string(text);
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

bool isAsciiSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0B || c == 0x0C;
}

// Byte length of the whitespace run at the end of `text` (Unicode White_Space, whole code
// points only). Scans backwards: O(length of the run).
std::size_t trailingSpaceBytes(std::string_view text) {
  std::size_t end = text.size();
  while (end > 0) {
    const auto last = static_cast<unsigned char>(text[end - 1]);
    if (last < 0x80) {
      if (!isAsciiSpace(last)) break;
      --end;
      continue;
    }
    std::size_t start = end - 1; // back up to the lead byte of the last code point
    while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80)
      --start;
    std::size_t at = start;
    char32_t cp = decodeUtf8(text, at);
    if (at != end || !isUnicodeSpace(cp)) break;
    end = start;
  }
  return text.size() - end;
}

std::size_t leadingSpaceBytes(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      if (!isAsciiSpace(lead)) return i;
      ++i;
      continue;
    }
    std::size_t begin = i;
    char32_t cp = decodeUtf8(text, i);
    if (!isUnicodeSpace(cp)) return begin;
  }
  return text.size();
}

// Walks `original[skip..]` as normalized pieces, in order: visit(piece, original_begin,
// original_end, bytewise). A bytewise piece is a byte-exact copy of original[begin, end) in
// which every byte is its own unit; otherwise the piece is the normalized form of exactly one
// original unit (a code point, or a line break).
template <class Visit>
void walkUnits(std::string_view original, FoldLevel level, std::size_t skip, Visit&& visit) {
  std::size_t i = std::min(skip, original.size());
  const bool has_cr = original.find('\r', i) != std::string_view::npos;
  while (i < original.size()) {
    std::size_t content_end = has_cr ? original.find_first_of("\r\n", i) : original.find('\n', i);
    if (content_end == std::string_view::npos) content_end = original.size();
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
    if (level != FoldLevel::Compatibility || isAscii(content)) {
      if (!content.empty()) visit(content, i, i + content.size(), true);
    } else {
      std::size_t run_begin = 0; // start of the current run of unfolded ASCII bytes
      for (std::size_t k = 0; k < content.size();) {
        if (static_cast<unsigned char>(content[k]) < 0x80) {
          ++k;
          continue;
        }
        if (k > run_begin)
          visit(content.substr(run_begin, k - run_begin), i + run_begin, i + k, true);
        std::size_t begin = k;
        char32_t cp = decodeUtf8(content, k);
        std::string_view folded = foldCodePoint(cp);
        visit(folded.empty() ? content.substr(begin, k - begin) : folded, i + begin, i + k, false);
        run_begin = k;
      }
      if (content.size() > run_begin)
        visit(content.substr(run_begin), i + run_begin, i + content.size(), true);
    }
    if (break_end > content_end) visit(std::string_view("\n"), content_end, break_end, false);
    i = break_end;
  }
}

} // namespace

std::string_view trimEndUnicode(std::string_view text) {
  return text.substr(0, text.size() - trailingSpaceBytes(text));
}

std::string_view trimUnicode(std::string_view text) {
  text = trimEndUnicode(text);
  return text.substr(leadingSpaceBytes(text));
}

std::string foldText(std::string_view original, FoldLevel level, std::size_t skip_prefix_bytes) {
  std::string out;
  out.reserve(original.size());
  if (level == FoldLevel::LineEndings &&
      original.find('\r', skip_prefix_bytes) == std::string_view::npos)
    return std::string(original.substr(std::min(skip_prefix_bytes, original.size())));
  walkUnits(original, level, skip_prefix_bytes,
            [&](std::string_view piece, std::size_t, std::size_t, bool) { out.append(piece); });
  return out;
}

std::vector<std::optional<ByteRange>> mapToOriginal(std::string_view original, FoldLevel level,
                                                    std::size_t skip_prefix_bytes,
                                                    const std::vector<ByteRange>& normalized) {
  // Queries: the first byte of each range must start a unit, its last byte must end one.
  struct Query {
    std::size_t position;
    std::size_t range;
    bool is_begin;
  };
  std::vector<Query> queries;
  queries.reserve(normalized.size() * 2);
  for (std::size_t r = 0; r < normalized.size(); ++r) {
    queries.push_back({normalized[r].begin, r, true});
    queries.push_back({normalized[r].end - 1, r, false});
  }
  std::sort(queries.begin(), queries.end(),
            [](const Query& a, const Query& b) { return a.position < b.position; });
  std::vector<ByteRange> found(normalized.size());
  if (level == FoldLevel::LineEndings &&
      original.find('\r', skip_prefix_bytes) == std::string_view::npos) {
    const std::size_t skip = std::min(skip_prefix_bytes, original.size());
    std::vector<std::optional<ByteRange>> out;
    for (const ByteRange& r : normalized)
      out.push_back(ByteRange{r.begin + skip, r.end + skip});
    return out;
  }
  std::vector<int> valid(normalized.size(), 0); // counts satisfied ends (2 = both)
  std::size_t next = 0, normalized_at = 0;
  walkUnits(
      original, level, skip_prefix_bytes,
      [&](std::string_view piece, std::size_t origin_begin, std::size_t origin_end, bool bytewise) {
        const std::size_t unit_end = normalized_at + piece.size();
        while (next < queries.size() && queries[next].position < unit_end) {
          const Query& q = queries[next++];
          if (bytewise) { // every byte is a unit: offsets map one to one
            const std::size_t origin = origin_begin + (q.position - normalized_at);
            if (q.is_begin)
              found[q.range].begin = origin;
            else
              found[q.range].end = origin + 1;
            ++valid[q.range];
          } else if (q.is_begin && q.position == normalized_at) {
            found[q.range].begin = origin_begin;
            ++valid[q.range];
          } else if (!q.is_begin && q.position == unit_end - 1) {
            found[q.range].end = origin_end;
            ++valid[q.range];
          }
        }
        normalized_at = unit_end;
      });
  std::vector<std::optional<ByteRange>> out(normalized.size());
  for (std::size_t r = 0; r < normalized.size(); ++r)
    if (valid[r] == 2) out[r] = found[r];
  return out;
}

std::string looseLineKey(std::string_view line) {
  return foldString(trimUnicode(line));
}

} // namespace hashline::forms
