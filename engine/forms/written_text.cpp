// Written-text checks and read-prefix stripping; see written_text.h.
#include "engine/forms/written_text.h"

#include "engine/anchors/anchor.h"
#include "engine/verify/text_checks.h"

namespace hashline::forms {
namespace {

// Calls visit(content, terminator) for every line of `text`.
template <class Visit> void forEachLine(std::string_view text, Visit&& visit) {
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find_first_of("\r\n", i);
    if (end == std::string_view::npos) end = text.size();
    std::size_t brk = end;
    if (brk < text.size())
      brk += (text[brk] == '\r' && brk + 1 < text.size() && text[brk + 1] == '\n') ? 2 : 1;
    visit(text.substr(i, end - i), text.substr(end, brk - end));
    i = brk;
  }
}

} // namespace

Status checkWrittenText(std::string_view text, std::string_view what) {
  if (const std::optional<std::size_t> byte = firstNonTextByte(text))
    return Error::make(ErrorCode::NotText, std::string(what) +
                                               " has a NUL byte or invalid UTF-8 at byte " +
                                               std::to_string(*byte));
  std::size_t number = 0, bad = 0;
  forEachLine(text, [&](std::string_view line, std::string_view) {
    ++number;
    if (bad == 0 && startsWithRowPrefix(line)) bad = number;
  });
  if (bad == 0) return Status::success();
  return Error::make(ErrorCode::MalformedAnchor,
                     std::string(what) + " line " + std::to_string(bad) +
                         " starts with a read prefix (LINE:LLL:BBB\xE2\x86\x92); give the text "
                         "only")
      .withHint("remove the pasted LINE:LLL:BBB\xE2\x86\x92 prefixes, then retry");
}

std::optional<std::string> stripReadPrefixes(std::string_view text) {
  std::string out;
  bool all = true, any = false;
  forEachLine(text, [&](std::string_view line, std::string_view terminator) {
    if (!all) return;
    if (line.empty()) {
      out += terminator;
      return;
    }
    if (!startsWithRowPrefix(line)) {
      all = false;
      return;
    }
    const std::size_t arrow = line.find(kRowSeparator);
    out += line.substr(arrow + kRowSeparator.size());
    out += terminator;
    any = true;
  });
  if (!all || !any) return std::nullopt;
  return out;
}

} // namespace hashline::forms
