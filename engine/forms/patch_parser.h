// Parser of the codex `apply_patch` language (`*** Begin Patch` … `*** End Patch`) into a Patch.
//
// Accepts exactly what codex's parser accepts (shared/docs/apply-patch.md §1): the whole input
// trimmed, CRLF patch text, Begin/End markers padded with whitespace, the `<<'EOF'` heredoc
// wrapper, an `*** Environment ID:` line, indented hunk headers between hunks, `*** Move to:`,
// `@@` / `@@ text` chunk headers, a first chunk without `@@`, `*** End of File`, and a
// duplicated final `*** End Patch`. Supersets, all documented in docs/forms.md: stacked `@@`
// headers (each narrows the search in turn), blank lines between hunks, and an Update with only a
// `*** Move to:` (a pure rename). Errors are PATCH_INVALID with the 1-based patch line (Begin is
// line 1) in the message and in ErrorData::notes ("patch line N"). Pure; no I/O.
#pragma once

#include "engine/support/result.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::forms {

struct PatchLine {
  enum Kind { Context, Add, Remove } kind = Context;
  std::string text; // without the prefix character and without a line break
};

/// One `@@` section of an Update.
struct PatchChunk {
  std::vector<std::string> contexts; // `@@ text` headers, in order (empty for a bare `@@`)
  std::vector<PatchLine> lines;
  bool end_of_file = false; // `*** End of File`: the old lines must be the file's last lines
  std::size_t patch_line = 0;
};

struct PatchHunk {
  enum Kind { Add, Delete, Update } kind = Update;
  std::string path;
  std::optional<std::string> move_to; // Update only
  std::string add_content;            // Add only: the `+` lines, each ending in "\n"
  std::vector<PatchChunk> chunks;     // Update only
  std::size_t patch_line = 0;         // the header's line
};

struct Patch {
  std::vector<PatchHunk> hunks;
  std::optional<std::string> environment_id;
};

Result<Patch> parsePatch(std::string_view text);

} // namespace hashline::forms
