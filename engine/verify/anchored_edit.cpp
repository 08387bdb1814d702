// Anchored edit ops and content splitting; see anchored_edit.h.
#include "engine/verify/anchored_edit.h"

namespace hashline {

std::string_view editOpName(EditOp op) {
  switch (op) {
  case EditOp::Replace:
    return "replace";
  case EditOp::Delete:
    return "delete";
  case EditOp::InsertAfter:
    return "insert_after";
  case EditOp::InsertBefore:
    return "insert_before";
  case EditOp::Write:
    return "write";
  }
  return "replace";
}

std::optional<EditOp> editOpFromName(std::string_view name) {
  for (EditOp op :
       {EditOp::Replace, EditOp::Delete, EditOp::InsertAfter, EditOp::InsertBefore, EditOp::Write})
    if (editOpName(op) == name) return op;
  return std::nullopt;
}

std::vector<std::string> splitContentLines(std::string_view content) {
  std::vector<std::string> lines;
  if (content.empty()) return lines;
  // Drop one final line break.
  if (content.ends_with("\r\n"))
    content.remove_suffix(2);
  else if (content.ends_with('\n') || content.ends_with('\r'))
    content.remove_suffix(1);
  std::string current;
  for (std::size_t i = 0; i < content.size(); ++i) {
    const char c = content[i];
    if (c == '\r' || c == '\n') {
      lines.push_back(std::move(current));
      current.clear();
      if (c == '\r' && i + 1 < content.size() && content[i + 1] == '\n') ++i;
      continue;
    }
    current.push_back(c);
  }
  lines.push_back(std::move(current));
  return lines;
}

} // namespace hashline
