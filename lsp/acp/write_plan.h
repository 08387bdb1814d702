// From an agent's whole-file fs/write_text_file to a hashline edit: the change between what the
// agent last saw of the file and the content it sends, merged with what the file holds now.
//
// Texts are compared as lines without their endings (the agent sees "\n" lines; the file keeps
// its own endings, which the line-range form writes): `splitContentLines` turns a content string
// into lines ("" and "\n" are one empty line; "\r\n" counts as "\n"; one final line break is
// optional, so a write never changes whether the file ends with one). `planWrite` merges three
// versions with the engine's three-way merge (engine/merge/three_way.h), as the reconciler does
// for disk writes: base = the agent's view (its last read, or its last accepted write), ours =
// the file now (the user's unsaved typing included), theirs = the new content. Hunks only the
// agent changed become line-range edits against the current lines (1-based, inclusive; `end =
// start - 1` inserts); hunks both changed differently are conflicts carrying the current text —
// nothing of the write is applied then. `acpContent` renders lines as fs/read_text_file answers
// them (line/limit window). Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::acp {

std::vector<std::string> splitContentLines(std::string_view content);
/// Each line followed by "\n" (the merge's texts).
std::string joinLines(const std::vector<std::string>& lines);

/// Lines [line, line + limit) (1-based; line defaults to 1, limit to the rest) joined with "\n";
/// the last line of the file keeps a final "\n" only when the file has one. A window past the
/// end is "".
std::string acpContent(const std::vector<std::string>& lines, bool final_newline,
                       std::optional<std::int64_t> line, std::optional<std::int64_t> limit);

struct LineRangeChange {
  std::uint32_t start = 0; // 1-based, in the current lines
  std::uint32_t end = 0;   // inclusive; start - 1 inserts before start
  std::string content;     // the new lines, each ended by "\n"
};

struct WriteConflict {
  std::uint32_t first_line = 0; // 1-based current lines [first, last]; last < first: deleted
  std::uint32_t last_line = 0;
  std::string current_text; // what those lines hold now
  std::string agent_text;   // what the agent wanted there
};

struct WritePlan {
  std::vector<LineRangeChange> changes;
  std::vector<WriteConflict> conflicts;
};

WritePlan planWrite(std::string_view agent_view, std::string_view current,
                    std::string_view new_content);

} // namespace hashline::acp
