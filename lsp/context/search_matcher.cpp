// RE2 / literal matching for the workspace search; see search_matcher.h.
#include "lsp/context/search_matcher.h"

#include <re2/re2.h>

namespace hashline::context {

namespace {

Error invalid(const std::string& message) {
  return Error::make(ErrorCode::InvalidPattern, message)
      .withHint("fix the regular expression (RE2 syntax: no backreferences or lookaround), or "
                "search for the text as it is with --literal");
}

} // namespace

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
  } else {
    // `^` and `$` at every line's start and end; never_nl keeps matches inside one line.
    matcher->buffer_re_ = std::make_unique<RE2>("(?m:" + pattern + ")", re_options);
    if (!matcher->buffer_re_->ok())
      return invalid("invalid regular expression '" + pattern +
                     "': " + matcher->buffer_re_->error());
  }
  matcher->crlf_sensitive_ = !options.literal && pattern.find('$') != std::string::npos;
  return std::shared_ptr<const SearchMatcher>(std::move(matcher));
}

bool SearchMatcher::anyMatch(std::string_view buffer) const {
  // Multi-line `$` matches before "\n" only, not before the '\r' of CRLF: let such files
  // through to the per-line check (lines there come without their terminator).
  if (crlf_sensitive_ && buffer.find('\r') != std::string_view::npos) return true;
  return RE2::PartialMatch(buffer, *buffer_re_);
}

bool SearchMatcher::lineMatches(std::string_view line) const {
  return RE2::PartialMatch(line, *line_re_);
}

} // namespace hashline::context
