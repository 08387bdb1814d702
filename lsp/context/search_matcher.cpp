// RE2 / literal matching for the workspace search; see search_matcher.h.
#include "lsp/context/search_matcher.h"

#include "lsp/platform/find_bytes.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <re2/re2.h>

namespace hashline::context {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::size_t npos = std::string_view::npos;
/// Required literals shorter than this are not worth a literal pass (almost every line would be
/// a candidate).
constexpr std::size_t kMinRequiredLiteral = 2;

Error invalid(const std::string& message) {
  return Error::make(ErrorCode::InvalidPattern, message)
      .withHint("fix the regular expression (RE2 syntax: no backreferences or lookaround), or "
                "search for the text as it is with --literal");
}

// ---- read lines of a buffer ---------------------------------------------------------------------

/// One read line: its number, its content [begin, end) (no terminator, no BOM) and where the next
/// line starts (text.size() + 1 after the last line).
struct LineSpan {
  std::uint32_t line = 1;
  std::size_t start = 0; // where the line starts (before a BOM)
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t next = 0;
};

/// Walks the read lines of a buffer front to back, as engine/anchors/read_lines.h numbers them:
/// LF, CRLF and a lone CR end a line, a BOM is not part of line 1, and a final line break starts
/// no further line.
class LineCursor {
public:
  explicit LineCursor(std::string_view text) : text_(text) { span_ = spanAt(1, 0); }

  const LineSpan& line() const { return span_; }
  /// Whether there is a read line after this one.
  bool hasNext() const { return span_.next < text_.size(); }
  void advance() { span_ = spanAt(span_.line + 1, span_.next); }
  /// Moves forward to the line holding byte `at` (a byte of a terminator belongs to the line it
  /// ends; text.size() to the last line). False when `at` is past the last read line: the empty
  /// "line" after a final line break.
  bool seek(std::size_t at) {
    while (at >= span_.next) {
      if (!hasNext()) return false;
      advance();
    }
    return true;
  }

private:
  LineSpan spanAt(std::uint32_t line, std::size_t start) const {
    const char* data = text_.data();
    const std::size_t size = text_.size();
    LineSpan span;
    span.line = line;
    span.start = start;
    span.begin = line == 1 && text_.substr(0, kBom.size()) == kBom ? kBom.size() : start;
    const void* lf = start < size ? std::memchr(data + start, '\n', size - start) : nullptr;
    const std::size_t lf_at = lf ? static_cast<const char*>(lf) - data : size;
    if (const void* cr = lf_at > start ? std::memchr(data + start, '\r', lf_at - start) : nullptr) {
      span.end = static_cast<const char*>(cr) - data;
      span.next = span.end + (span.end + 1 < size && data[span.end + 1] == '\n' ? 2 : 1);
    } else {
      span.end = lf_at;
      span.next = lf_at + 1; // size + 1 for the last line
    }
    return span;
  }

  std::string_view text_;
  LineSpan span_;
};

// ---- the pattern's shape ------------------------------------------------------------------------

/// Bytes of the UTF-8 sequence `lead` starts (1 for ASCII and stray bytes).
std::size_t sequenceLength(char lead) {
  const auto byte = static_cast<unsigned char>(lead);
  return byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
}

bool isAsciiPunctuation(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x80 && std::ispunct(byte) != 0;
}

/// Past the escape at p[i] == '\\' (RE2 syntax: \x{..}, \xHH, \p{..}, \pL, octal \0-\7 with up
/// to two more digits, \Q...\E, or one character).
std::size_t skipEscape(std::string_view p, std::size_t i) {
  ++i;
  if (i >= p.size()) return i;
  const char c = p[i++];
  if ((c == 'x' || c == 'p' || c == 'P') && i < p.size() && p[i] == '{') {
    const std::size_t close = p.find('}', i);
    return close == npos ? p.size() : close + 1;
  }
  if (c == 'x') return std::min(p.size(), i + 2);
  if (c == 'p' || c == 'P') return i < p.size() ? std::min(p.size(), i + sequenceLength(p[i])) : i;
  if (c == 'Q') {
    const std::size_t close = p.find("\\E", i);
    return close == npos ? p.size() : close + 2;
  }
  if (c >= '0' && c <= '7') {
    for (int more = 0; more < 2 && i < p.size() && p[i] >= '0' && p[i] <= '7'; ++more)
      ++i;
    return i;
  }
  return std::min(p.size(), i - 1 + sequenceLength(c));
}

/// Past the character class at p[i] == '['.
std::size_t skipClass(std::string_view p, std::size_t i) {
  ++i;
  if (i < p.size() && p[i] == '^') ++i;
  if (i < p.size() && p[i] == ']') ++i; // a leading ']' is a member
  while (i < p.size() && p[i] != ']') {
    if (p[i] == '\\') {
      i = skipEscape(p, i);
    } else if (p.substr(i, 2) == "[:") { // [:alpha:], when it closes
      const std::size_t close = p.find(":]", i + 2);
      i = close == npos ? i + 1 : close + 2;
    } else {
      ++i;
    }
  }
  return std::min(p.size(), i + 1);
}

/// Past the group at p[i] == '('.
std::size_t skipGroup(std::string_view p, std::size_t i) {
  int depth = 0;
  while (i < p.size()) {
    const char c = p[i];
    if (c == '\\') {
      i = skipEscape(p, i);
      continue;
    }
    if (c == '[') {
      i = skipClass(p, i);
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) return i + 1;
    ++i;
  }
  return i;
}

/// Whether a flag group `(?flags` of `p` sets or clears `flag` (after a '-' only, if `cleared`).
/// Textual and conservative: `\(?i` counts too.
bool hasFlag(std::string_view p, char flag, bool cleared) {
  for (std::size_t at = p.find("(?"); at != npos; at = p.find("(?", at + 1)) {
    bool negated = false;
    for (std::size_t j = at + 2;
         j < p.size() && (std::isalpha(static_cast<unsigned char>(p[j])) || p[j] == '-'); ++j) {
      if (p[j] == '-') negated = true;
      if (p[j] == flag && (negated || !cleared)) return true;
    }
  }
  return false;
}

} // namespace

std::string SearchMatcher::requiredLiteralOf(std::string_view p) {
  if (hasFlag(p, 'i', false)) return ""; // case folded somewhere
  std::string best, run;
  std::size_t last = 0; // bytes of the run's last character; 0: the last atom was no literal
  auto commit = [&] {
    if (run.size() > best.size()) best = run;
    run.clear();
    last = 0;
  };
  auto lazy = [&](std::size_t i) { return i < p.size() && p[i] == '?' ? i + 1 : i; };
  std::size_t i = 0;
  while (i < p.size()) {
    const char c = p[i];
    switch (c) {
    case '|':
    case ')':
      return ""; // a top-level alternative: no literal is certain
    case '(':
      commit();
      i = skipGroup(p, i);
      break;
    case '[':
      commit();
      i = skipClass(p, i);
      break;
    case '\\':
      if (i + 1 < p.size() && isAsciiPunctuation(p[i + 1])) { // \. \( \\ ...: that character
        run += p[i + 1];
        last = 1;
        i += 2;
      } else {
        commit();
        i = skipEscape(p, i);
      }
      break;
    case '*':
    case '?': // the previous atom is optional
      if (last) run.resize(run.size() - last);
      commit();
      i = lazy(i + 1);
      break;
    case '+': // at least once: required, but the run ends
      commit();
      i = lazy(i + 1);
      break;
    case '{': { // {n}, {n,}, {n,m}
      std::size_t j = i + 1, digits = 0;
      std::size_t low = 0;
      for (; j < p.size() && std::isdigit(static_cast<unsigned char>(p[j])); ++j, ++digits)
        low = std::min<std::size_t>(low * 10 + (p[j] - '0'), 100000);
      if (digits > 0 && j < p.size() && p[j] == ',') {
        ++j;
        while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j])))
          ++j;
      }
      if (digits == 0 || j >= p.size() || p[j] != '}') return ""; // RE2 reads '{' as a literal
      if (low == 0 && last) run.resize(run.size() - last);
      commit();
      i = lazy(j + 1);
      break;
    }
    case '.':
    case '^':
    case '$':
      commit();
      ++i;
      break;
    default: { // a literal character (a whole UTF-8 sequence)
      const std::size_t length = std::min(p.size() - i, sequenceLength(c));
      run.append(p.substr(i, length));
      last = length;
      i += length;
    }
    }
  }
  commit();
  return best;
}

SearchMatcher::~SearchMatcher() = default;

Result<std::shared_ptr<const SearchMatcher>> SearchMatcher::compile(const std::string& pattern,
                                                                    MatcherOptions options) {
  if (pattern.empty()) return invalid("the pattern is empty");
  if (pattern.find_first_of("\r\n") != std::string::npos)
    return invalid("the pattern holds a line break; search matches within one line");
  RE2::Options re_options;
  re_options.set_log_errors(false);
  re_options.set_never_nl(true);
  re_options.set_case_sensitive(!options.ignore_case);
  re_options.set_literal(options.literal);
  re_options.set_max_mem(64 << 20);
  std::shared_ptr<SearchMatcher> matcher(new SearchMatcher());
  matcher->line_re_ = std::make_unique<RE2>(pattern, re_options);
  if (!matcher->line_re_->ok())
    return invalid("invalid regular expression '" + pattern + "': " + matcher->line_re_->error());
  if (options.literal) {
    matcher->buffer_re_ = std::make_unique<RE2>(pattern, re_options);
    if (!options.ignore_case) matcher->required_ = pattern;
  } else {
    // `^` and `$` at every line's start and end; never_nl keeps matches inside one line.
    matcher->buffer_re_ = std::make_unique<RE2>("(?m:" + pattern + ")", re_options);
    if (!matcher->buffer_re_->ok())
      return invalid("invalid regular expression '" + pattern +
                     "': " + matcher->buffer_re_->error());
    if (!options.ignore_case) matcher->required_ = requiredLiteralOf(pattern);
    if (matcher->required_.size() < kMinRequiredLiteral) matcher->required_.clear();
    matcher->text_anchors_ = pattern.find("\\A") != std::string::npos ||
                             pattern.find("\\z") != std::string::npos ||
                             hasFlag(pattern, 'm', true);
    matcher->caret_ = pattern.find('^') != std::string::npos;
    matcher->dollar_ = pattern.find('$') != std::string::npos;
  }
  return std::shared_ptr<const SearchMatcher>(std::move(matcher));
}

SearchMatcher::Pass SearchMatcher::passFor(std::string_view text) const {
  if (!required_.empty()) return Pass::Literal;
  if (text_anchors_) return Pass::Lines;
  if (!caret_ && !dollar_) return Pass::Buffer;
  const char* data = text.data();
  const char* end = data + text.size();
  const void* cr = text.empty() ? nullptr : std::memchr(data, '\r', text.size());
  if (cr == nullptr) return Pass::Buffer;
  if (dollar_) return Pass::Lines; // multi-line `$` does not match before a CR
  // Multi-line `^` matches after "\n" only: not after a lone CR.
  for (const char* at = static_cast<const char*>(cr); at != nullptr;
       at = static_cast<const char*>(std::memchr(at + 1, '\r', end - at - 1)))
    if (at + 1 == end || at[1] != '\n') return Pass::Lines;
  return Pass::Buffer;
}

bool SearchMatcher::anyMatch(std::string_view text) const {
  return !matchingLines(text, 1).empty();
}

bool SearchMatcher::lineMatches(std::string_view line) const {
  return RE2::PartialMatch(line, *line_re_);
}

std::vector<std::uint32_t> SearchMatcher::matchingLines(std::string_view text,
                                                        std::size_t limit) const {
  std::vector<std::uint32_t> lines;
  if (limit == 0) return lines;
  LineCursor cursor(text);
  // The line under the cursor, decided by the line expression; false once `limit` lines match.
  auto decide = [&] {
    const LineSpan& span = cursor.line();
    if (lineMatches(text.substr(span.begin, span.end - span.begin))) lines.push_back(span.line);
    return lines.size() < limit;
  };
  const Pass pass = passFor(text);
  if (pass == Pass::Lines) {
    while (decide() && cursor.hasNext())
      cursor.advance();
    return lines;
  }
  const re2::StringPiece piece(text.data(), text.size());
  // The next candidate byte at or after `from` (npos: none): a byte of every matching line's
  // first match lies at or before it, in a line at or after `from`'s.
  auto find = [&](std::size_t from) -> std::size_t {
    if (pass == Pass::Literal) {
      if (from >= text.size()) return npos;
      const std::size_t at = platform::findBytes(text.substr(from), required_);
      return at == npos ? npos : from + at;
    }
    re2::StringPiece match;
    if (!buffer_re_->Match(piece, from, text.size(), RE2::UNANCHORED, &match, 1)) return npos;
    return static_cast<std::size_t>(match.data() - text.data());
  };
  if (pass == Pass::Buffer && cursor.line().begin > 0) {
    // A BOM: `^` and `\b` would see it in the buffer; line 1 is decided on its own.
    if (!decide() || !cursor.hasNext()) return lines;
    cursor.advance();
  }
  for (;;) {
    const std::size_t at = find(cursor.line().start);
    if (at == npos || !cursor.seek(at) || !decide() || !cursor.hasNext()) break;
    cursor.advance();
  }
  return lines;
}

} // namespace hashline::context
