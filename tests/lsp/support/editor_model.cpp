// The test's editor buffer; see editor_model.h.
#include "tests/lsp/support/editor_model.h"

#include <algorithm>
#include <stdexcept>

namespace hashline::test {

namespace {

std::size_t utf8Length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 6) return 2;
  if ((lead >> 4) == 14) return 3;
  if ((lead >> 3) == 30) return 4;
  return 1;
}

} // namespace

namespace {

// LSP line starts: LF, CRLF and a lone CR all end a line.
std::vector<std::size_t> lineStarts(const std::string& text) {
  std::vector<std::size_t> starts = {0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    if (text[i] == '\n' || text[i] == '\r') starts.push_back(i + 1);
  }
  return starts;
}

} // namespace

std::pair<std::size_t, std::size_t> EditorModel::lineBytes(std::size_t line) const {
  std::vector<std::size_t> starts = lineStarts(text);
  if (line >= starts.size()) return {text.size(), text.size()};
  std::size_t begin = starts[line];
  std::size_t end = text.size();
  // content only: drop the one terminator (CRLF, LF or CR)
  if (line + 1 < starts.size()) {
    end = starts[line + 1];
    if (end > begin && text[end - 1] == '\n') --end;
    if (end > begin && text[end - 1] == '\r') --end;
  } else {
    end = text.size();
  }
  return {begin, end};
}

std::size_t EditorModel::offsetOf(std::uint32_t line, std::uint32_t character) const {
  auto [begin, end] = lineBytes(line);
  std::size_t offset = begin;
  std::uint32_t units = 0;
  while (offset < end && units < character) {
    std::size_t length = utf8Length(static_cast<unsigned char>(text[offset]));
    units += length == 4 ? 2 : 1;
    offset += length;
  }
  return offset;
}

EditorModel::json EditorModel::positionOf(std::size_t offset) const {
  std::vector<std::size_t> starts = lineStarts(text);
  std::size_t line = std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin() - 1;
  std::uint32_t units = 0;
  for (std::size_t i = starts[line]; i < offset;) {
    std::size_t length = utf8Length(static_cast<unsigned char>(text[i]));
    units += length == 4 ? 2 : 1;
    i += length;
  }
  return {{"line", line}, {"character", units}};
}

EditorModel::json EditorModel::replaceBytes(std::size_t begin, std::size_t end,
                                            const std::string& replacement) {
  json change = {{"range", {{"start", positionOf(begin)}, {"end", positionOf(end)}}},
                 {"text", replacement}};
  text.replace(begin, end - begin, replacement);
  return change;
}

std::vector<EditorModel::json> EditorModel::applyTextEdits(const json& edits) {
  struct Edit {
    std::size_t begin, end;
    std::string text;
    std::size_t order;
  };
  std::vector<Edit> resolved;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    const json& range = edits[i]["range"];
    std::size_t begin = offsetOf(range["start"]["line"], range["start"]["character"]);
    std::size_t end = offsetOf(range["end"]["line"], range["end"]["character"]);
    if (end < begin) throw std::runtime_error("edit range ends before it starts");
    resolved.push_back({begin, end, edits[i]["newText"].get<std::string>(), i});
  }
  // Bottom-up; inserts at one place keep array order (apply later ones first).
  std::sort(resolved.begin(), resolved.end(), [](const Edit& a, const Edit& b) {
    return a.begin != b.begin ? a.begin > b.begin : a.order > b.order;
  });
  std::vector<json> changes;
  for (const Edit& edit : resolved)
    changes.push_back(replaceBytes(edit.begin, edit.end, edit.text));
  return changes;
}

std::vector<std::string> EditorModel::lines() const {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t nl = text.find('\n', begin);
    if (nl == std::string::npos) {
      out.push_back(text.substr(begin));
      break;
    }
    out.push_back(text.substr(begin, nl - begin));
    begin = nl + 1;
  }
  if (out.empty()) out.push_back("");
  return out;
}

} // namespace hashline::test
