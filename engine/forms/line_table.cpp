// Line splitting for the edit forms; see line_table.h.
#include "engine/forms/line_table.h"

#include <algorithm>

namespace hashline::forms {

LineTable::LineTable(std::string text) : text_(std::move(text)) {
  if (text_.size() >= 3 && text_.compare(0, 3, "\xEF\xBB\xBF") == 0) bom_bytes_ = 3;
  std::size_t i = bom_bytes_;
  bool first_break_seen = false;
  const bool has_cr = text_.find('\r') != std::string::npos;
  while (true) {
    std::size_t end = has_cr ? text_.find_first_of("\r\n", i) : text_.find('\n', i);
    if (end == std::string::npos) end = text_.size();
    std::size_t brk = end;
    if (brk < text_.size())
      brk += (text_[brk] == '\r' && brk + 1 < text_.size() && text_[brk + 1] == '\n') ? 2 : 1;
    content_begin_.push_back(i);
    content_end_.push_back(end);
    break_end_.push_back(brk);
    if (brk > end && !first_break_seen) {
      first_ending_ = text_.substr(end, brk - end);
      first_break_seen = true;
    }
    if (brk == text_.size()) {
      ends_with_break_ = brk > end;
      break;
    }
    i = brk;
  }
}

std::size_t LineTable::lineOfByte(std::size_t byte) const {
  auto it = std::upper_bound(content_begin_.begin(), content_begin_.end(), byte);
  if (it == content_begin_.begin()) return 0;
  return static_cast<std::size_t>(it - content_begin_.begin()) - 1;
}

std::string_view LineTable::lineEndingAt(std::size_t line) const {
  std::string_view own = terminator(line);
  return own.empty() ? std::string_view(first_ending_) : own;
}

std::string LineTable::numberedExcerpt(std::size_t first, std::size_t last) const {
  std::string out;
  if (lineCount() == 0) return out;
  last = std::min(last, lineCount() - 1);
  for (std::size_t line = first; line <= last; ++line) {
    std::string number = std::to_string(line + 1);
    if (number.size() < 4) out.append(4 - number.size(), ' ');
    out += number;
    out += ": ";
    out += content(line);
    out += '\n';
  }
  return out;
}

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = i;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r')
      ++end;
    lines.emplace_back(text.substr(i, end - i));
    if (end == text.size()) break;
    i = end + ((text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') ? 2 : 1);
  }
  return lines;
}

std::string withLineEndings(std::string_view text, std::string_view ending) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
      out += ending;
    } else if (text[i] == '\n') {
      out += ending;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

} // namespace hashline::forms
