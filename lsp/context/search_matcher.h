// SearchMatcher: the pattern of a workspace search — an RE2 regular expression or a literal —
// compiled once and used on whole file buffers (is there any match?) and on single lines (does
// this line match?).
//
// Matches never cross a line: the expression is compiled with RE2's never_nl (no `\n` in any
// class) and multi-line `^`/`$`, so searching a whole buffer finds exactly the files that have a
// matching line (the buffer search is only a filter; hits are decided per line, on the text the
// version belongs to). RE2 runs in linear time: no pattern can hang the sidecar. A pattern RE2
// refuses is INVALID_PATTERN with RE2's message. Thread-safe once built (RE2 is).
#pragma once

#include "engine/support/result.h"

#include <memory>
#include <string>
#include <string_view>

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

  /// Whether some line of `buffer` matches.
  bool anyMatch(std::string_view buffer) const;
  /// Whether `line` (one line, no terminator) matches.
  bool lineMatches(std::string_view line) const;

private:
  SearchMatcher() = default;
  std::unique_ptr<re2::RE2> buffer_re_; // multi-line, for whole buffers
  std::unique_ptr<re2::RE2> line_re_;   // for one line
  bool crlf_sensitive_ = false;         // `$` in a regex: CRLF buffers are not filtered
};

} // namespace hashline::context
