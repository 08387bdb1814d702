// LineTable: the lines of one whole document text, as the edit forms see them.
//
// Forms work on a flat copy of the document (O(n) per request is fine for them). Lines follow
// hashline's read numbering (DESIGN §3): a final line break does not create a phantom empty last
// line, an empty document is one empty line. LF, CRLF and lone CR all end a line, and each line
// remembers its own terminator. A UTF-8 BOM is not part of line 0's content (it stays in the file
// untouched unless an edit replaces the whole text). Lines are 0-based here; messages say 1-based.
// Immutable after construction; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::forms {

class LineTable {
public:
  explicit LineTable(std::string text);

  const std::string& text() const { return text_; }
  std::size_t bomBytes() const { return bom_bytes_; }
  /// Number of lines as hashline reads count them (>= 1).
  std::size_t lineCount() const { return content_begin_.size(); }
  /// Whether the last line has a terminator (the text ends with a line break).
  bool endsWithBreak() const { return ends_with_break_; }

  std::size_t contentBegin(std::size_t line) const { return content_begin_[line]; }
  std::size_t contentEnd(std::size_t line) const { return content_end_[line]; }
  /// Past the line's terminator (== contentEnd for an unterminated last line).
  std::size_t breakEnd(std::size_t line) const { return break_end_[line]; }
  std::string_view content(std::size_t line) const {
    return std::string_view(text_).substr(contentBegin(line),
                                          contentEnd(line) - contentBegin(line));
  }
  std::string_view terminator(std::size_t line) const {
    return std::string_view(text_).substr(contentEnd(line), breakEnd(line) - contentEnd(line));
  }
  /// Byte offset where `line` starts; lineCount() maps to the end of the text.
  std::size_t lineStart(std::size_t line) const {
    return line < lineCount() ? contentBegin(line) : text_.size();
  }
  /// The line holding byte offset `byte` (a byte inside a terminator belongs to its line).
  std::size_t lineOfByte(std::size_t byte) const;

  /// The first terminator in the document, or "\n" when it has none.
  std::string_view firstLineEnding() const { return first_ending_; }
  /// The terminator of `line`, or firstLineEnding() when the line has none.
  std::string_view lineEndingAt(std::size_t line) const;

  /// "  12: text" rows for lines [first, last] (clamped), 1-based numbers.
  std::string numberedExcerpt(std::size_t first, std::size_t last) const;

private:
  std::string text_;
  std::size_t bom_bytes_ = 0;
  bool ends_with_break_ = false;
  std::string first_ending_ = "\n";
  std::vector<std::size_t> content_begin_;
  std::vector<std::size_t> content_end_;
  std::vector<std::size_t> break_end_;
};

/// Splits a text (an agent's lines) on LF, CRLF or lone CR; a final line break does not add an
/// empty last element; "" is zero lines.
std::vector<std::string> splitLines(std::string_view text);
/// Converts every line break in `text` (LF, CRLF, CR) to `ending`.
std::string withLineEndings(std::string_view text, std::string_view ending);

} // namespace hashline::forms
