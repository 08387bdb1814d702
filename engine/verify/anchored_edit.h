// AnchoredEdit: one edit of the anchor form (DESIGN §5.1), as the wire layer hands it over.
//
//   replace      {anchor, end?, content}  lines anchor..end (inclusive) become `content`;
//                                         empty content deletes them
//   delete       {anchor, end?}           lines anchor..end are removed
//   insert_after {anchor | "0" | "EOF", content}   new lines after the anchored line; "0" is the
//                                         top of the file, "EOF" after the last line
//   insert_before{anchor | "0" | "EOF", content}   new lines before the anchored line
//   write        {content}                the whole file (must be the only edit; may create it)
//
// Content is the new lines' text, separated by LF, CRLF or CR (all accepted; the document's own
// line ending is written). One final line break is optional ("a\n" is the single line "a"); empty
// content inserts one empty line, and replaces lines with nothing. Anchors are strings so that
// parse errors name the edit they belong to. The lsp/ layer builds these from JSON; forms/ and
// the CLI reuse them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline {

enum class EditOp { Replace, Delete, InsertAfter, InsertBefore, Write };

/// "replace", "delete", "insert_after", "insert_before", "write".
std::string_view editOpName(EditOp op);
std::optional<EditOp> editOpFromName(std::string_view name);

struct AnchoredEdit {
  EditOp op = EditOp::Replace;
  std::string anchor;             // unused by write
  std::optional<std::string> end; // replace / delete only
  std::string content;            // unused by delete
};

/// The lines of an edit's content (see the file comment): "" → {}, "a\n" → {"a"},
/// "a\r\nb" → {"a", "b"}, "\n" → {""}.
std::vector<std::string> splitContentLines(std::string_view content);

} // namespace hashline
