// Read-line geometry over a Rope; see read_lines.h.
#include "engine/anchors/read_lines.h"

#include <cstring>

namespace hashline {

std::uint32_t readLineCount(const Rope& text) {
  const std::size_t lsp_lines = text.lineCount();
  if (lsp_lines > 1 && text.lineStartByte(lsp_lines - 1) == text.byteSize())
    return static_cast<std::uint32_t>(lsp_lines - 1);
  return static_cast<std::uint32_t>(lsp_lines);
}

std::size_t bomBytes(const Rope& text) {
  if (text.byteSize() < kUtf8Bom.size()) return 0;
  return text.slice(0, kUtf8Bom.size()) == kUtf8Bom ? kUtf8Bom.size() : 0;
}

bool endsWithLineBreak(const Rope& text) {
  return text.lineBreaks() > 0 && text.lineStartByte(text.lineCount() - 1) == text.byteSize();
}

bool isEmptyText(const Rope& text) {
  return text.byteSize() == bomBytes(text);
}

std::size_t lineContentBegin(const Rope& text, std::uint32_t line) {
  const std::size_t begin = text.lineStartByte(line - 1);
  return line == 1 ? begin + bomBytes(text) : begin;
}

std::size_t lineContentEnd(const Rope& text, std::uint32_t line) {
  return text.lineEndByte(line - 1);
}

std::size_t lineBreakEnd(const Rope& text, std::uint32_t line) {
  return text.lineEndWithBreakByte(line - 1);
}

std::string readLineText(const Rope& text, std::uint32_t line) {
  return text.slice(lineContentBegin(text, line), lineContentEnd(text, line));
}

LineSlices readLineSlices(const Rope& text, std::uint32_t first, std::uint32_t last) {
  LineSlices out;
  out.bounds.reserve(last - first + 1);
  out.bytes = text.slice(lineContentBegin(text, first), lineContentEnd(text, last));
  const char* data = out.bytes.data();
  const std::size_t size = out.bytes.size();
  std::size_t start = 0;
  if (std::memchr(data, '\r', size) == nullptr) { // LF only (the common case): memchr is fast
    while (const void* found = std::memchr(data + start, '\n', size - start)) {
      const std::size_t at = static_cast<const char*>(found) - data;
      out.bounds.emplace_back(start, at);
      start = at + 1;
    }
    out.bounds.emplace_back(start, size);
    return out;
  }
  for (std::size_t i = 0; i < size; ++i) {
    const char c = data[i];
    if (c != '\n' && c != '\r') continue; // (a plain loop: find_first_of is far slower)
    out.bounds.emplace_back(start, i);
    if (c == '\r' && i + 1 < size && data[i + 1] == '\n') ++i;
    start = i + 1;
  }
  out.bounds.emplace_back(start, size);
  return out;
}

std::vector<std::string> readLineTexts(const Rope& text, std::uint32_t first, std::uint32_t last) {
  const LineSlices slices = readLineSlices(text, first, last);
  std::vector<std::string> lines;
  lines.reserve(slices.size());
  for (std::size_t i = 0; i < slices.size(); ++i)
    lines.emplace_back(slices.line(i));
  return lines;
}

std::string lineTerminator(const Rope& text, std::uint32_t line) {
  return text.slice(lineContentEnd(text, line), lineBreakEnd(text, line));
}

std::string lineEndingNear(const Rope& text, std::uint32_t line) {
  std::string own = lineTerminator(text, line);
  if (!own.empty()) return own;
  if (line > 1) return lineTerminator(text, line - 1);
  return "\n";
}

} // namespace hashline
