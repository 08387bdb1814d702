// SearchMatcher: the pattern of a workspace search — an RE2 regular expression or a literal —
// compiled once and used on whole file buffers (which lines match?) and on single lines (does
// this line match?).
//
// A hit is always a read line (engine/anchors/read_lines.h: lines end at LF, CRLF or a lone CR;
// a UTF-8 BOM is not part of line 1) that the line expression matches: matches never cross a
// line (RE2's never_nl: no `\n` in any class), and `^`, `$`, `\A`, `\z` and `\b` see the line
// alone. `matchingLines` finds those lines in a whole buffer without running the line expression
// on every line: candidate lines come from one pass over the buffer, and each candidate is then
// decided by the line expression on that line's text, so the buffer pass only has to never miss
// a matching line. The pass is, in this order of preference:
//  - a literal search (memmem) for a string every match contains: the pattern itself in literal
//    mode, or a regex's longest required literal run (`mark_` in `\bmark_[a-z]{3}\b`; none when
//    the regex has a top-level `|`, an inline flag group with `i`, or ignore_case is set);
//  - the multi-line expression `(?m:PATTERN)` over the buffer, jumping to the next line after
//    each candidate — only where it finds every matching line: not for `\A`, `\z` or `(?-m)`,
//    not for `$` in a buffer holding a CR (multi-line `$` matches before "\n" only, not before
//    the CR of CRLF or a lone CR), nor for `^` in a buffer holding a lone CR;
//  - otherwise the line expression on every line.
// RE2 runs in linear time: no pattern can hang the sidecar. A pattern RE2 refuses is
// INVALID_PATTERN with RE2's message. Thread-safe once built (RE2 is).
#pragma once

#include "engine/support/result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace hashline::context {

struct MatcherOptions {
  bool literal = false;
  bool ignore_case = false;
};

class SearchMatcher {
public:
  /// INVALID_PATTERN when RE2 refuses `pattern` (or it is empty, or holds a line break).
  static Result<std::shared_ptr<const SearchMatcher>> compile(const std::string& pattern,
                                                              MatcherOptions options);
  ~SearchMatcher();

  /// Whether some read line of `text` matches (matchingLines(text, 1) is not empty).
  bool anyMatch(std::string_view text) const;
  /// Whether `line` (one line, no terminator) matches.
  bool lineMatches(std::string_view line) const;
  /// The read lines of `text` that lineMatches accepts (1-based, ascending), the first `limit`.
  std::vector<std::uint32_t> matchingLines(std::string_view text, std::size_t limit) const;

  /// The string every match contains, searched for first ("" when there is none to use).
  const std::string& requiredLiteral() const { return required_; }

  /// A regex's longest literal run that every match of it contains ("" when none is certain):
  /// exposed for tests. `pattern` must be one RE2 accepts.
  static std::string requiredLiteralOf(std::string_view pattern);

private:
  enum class Pass { Literal, Buffer, Lines };
  SearchMatcher() = default;
  Pass passFor(std::string_view text) const;

  std::unique_ptr<re2::RE2> buffer_re_; // multi-line, for whole buffers
  std::unique_ptr<re2::RE2> line_re_;   // for one line
  std::string required_;                // in every match: the literal pass looks for it
  bool text_anchors_ = false;           // `\A`, `\z` or `(?-m)`: whole buffers only line by line
  bool caret_ = false;                  // a `^` in the regex
  bool dollar_ = false;                 // a `$` in the regex
};

} // namespace hashline::context
