// Plans a parsed codex patch against the current texts of its files, all of it before anything
// is applied.
//
// The caller supplies file texts through `PatchFileReader` (the mirror for open buffers, the disk
// otherwise); nullopt means the file does not exist, an Error is passed through. The result is a
// PatchPlan: one entry per file with its kind, paths, base snapshot, EditPlan against the base
// and the full new text. If any hunk of any file fails, the whole patch is refused and nothing is
// planned (unlike codex, which commits hunk by hunk: upstream scenario 015).
//
// Matching (shared/docs/apply-patch.md §2): chunks are located in file order from a cursor, each
// `@@ text` header first, then the chunk's old lines (context + removed), up a ladder — exact,
// trailing whitespace ignored, surrounding whitespace ignored, whitespace ignored + Unicode
// look-alikes folded; the first level with a match wins, so an exact match later beats a fuzzy
// one earlier (as codex). Deliberate differences from codex, see docs/forms.md:
//  - several places at the winning level → AMBIGUOUS with their lines (codex silently takes the
//    first); after an `@@ text` header the nearest following match is meant, and the header
//    itself is ambiguous only if its occurrences lead to different places;
//  - a pure addition after `@@ text` is inserted right after that line (codex appends at EOF);
//  - context lines are never rewritten (their bytes and line endings stay), new lines take the
//    file's first line ending (LF if none) and always end with one (a file whose unterminated last
//    line is replaced or appended to gains a final line break, as codex; otherwise untouched);
//  - a UTF-8 BOM is ignored for matching and kept;
//  - two hunks naming the same file (or a move onto a file another hunk names) → PATCH_INVALID.
// Errors: PATCH_INVALID (parse, empty patch, duplicate targets), FILE_NOT_FOUND (update/delete of
// a missing file), NOT_FOUND (context or lines not found, quoted, with the closest match),
// AMBIGUOUS; added lines are written text (written_text.h: NOT_TEXT, MALFORMED_ANCHOR).
// Pure; no I/O (the reader is the caller's).
#pragma once

#include "engine/forms/patch_parser.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::forms {

struct FileSnapshot {
  Rope text;
  std::int64_t version = 0;
};

/// Returns the current text of `path` (as spelled in the patch), nullopt when it does not exist.
using PatchFileReader = std::function<Result<std::optional<FileSnapshot>>(const std::string& path)>;

enum class PatchFileKind { Add, Delete, Update, Move };

struct PatchFilePlan {
  PatchFileKind kind = PatchFileKind::Update;
  std::string path;     // as in the patch
  std::string new_path; // Move: the destination
  /// The existing text: Update/Move/Delete, and Add over an existing file (which it overwrites).
  std::optional<FileSnapshot> base;
  /// Edits against `base` (Update/Move; Add over an existing file: one whole replacement).
  EditPlan plan;
  /// The whole new content (Add/Update/Move); nullopt for Delete.
  std::optional<Rope> new_text;
  /// Move onto an existing file (it is overwritten, as codex does).
  bool overwrites_destination = false;
};

struct PatchPlan {
  std::vector<PatchFilePlan> files; // in patch order
};

Result<PatchPlan> planPatch(const Patch& patch, const PatchFileReader& read);
/// parsePatch + planPatch.
Result<PatchPlan> planPatch(std::string_view patch_text, const PatchFileReader& read);

/// The lexical form used to detect two operations on one file ("./a/../b" → "b").
std::string lexicalPath(std::string_view path);

} // namespace hashline::forms
