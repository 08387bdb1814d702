// EditPlan: the one verified form every edit request becomes (DESIGN §5).
//
// Anchored ops, old/new pairs, head/tail spans, line ranges, codex patches, lazy drafts and ed
// scripts each parse and verify into an EditPlan against one known text (a Rope at a version).
// From here on there is one path: minimal TextEdits for the editor, or a new file for the disk,
// and a journal record. Byte offsets refer to the base text; edits are sorted by `begin` and do
// not overlap (several pure insertions at one offset keep request order).
#pragma once

#include "engine/text/rope.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hashline {

struct ByteEdit {
  std::size_t begin = 0; // in the base text
  std::size_t end = 0;   // exclusive; == begin for a pure insertion
  std::string text;      // replacement, line endings already in the document's style
  bool operator==(const ByteEdit&) const = default;
};

/// An anchor that was carried through the user's typing: read at line `from`, applied at `to`.
struct Rebase {
  std::uint32_t from_line = 0; // 1-based, as the agent saw it
  std::uint32_t to_line = 0;   // 1-based, in the base text
  bool operator==(const Rebase&) const = default;
};

struct EditPlan {
  std::int64_t base_version = 0;
  std::vector<ByteEdit> edits;
  std::vector<Rebase> rebased;
  std::vector<std::string> warnings; // e.g. "large replace: 34 lines"
};

/// The base text with the plan applied (edits applied bottom-up on a copy: O(k log n)).
Rope applyPlan(const Rope& base, const EditPlan& plan);

} // namespace hashline
