// Whole-patch verification and planning; see patch_plan.h.
#include "engine/forms/patch_plan.h"

#include "engine/forms/line_index.h"
#include "engine/forms/line_table.h"
#include "engine/forms/near_miss.h"
#include "engine/forms/plan_builder.h"
#include "engine/forms/text_fold.h"
#include "engine/forms/text_search.h"
#include "engine/forms/written_text.h"

#include <algorithm>
#include <set>

namespace hashline::forms {
namespace {

std::string joinQuoted(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines)
    out += line + "\n";
  return out;
}

std::vector<std::uint32_t> toLines(const std::set<std::size_t>& positions) {
  std::vector<std::uint32_t> out;
  for (std::size_t p : positions)
    out.push_back(static_cast<std::uint32_t>(p + 1));
  return out;
}

class UpdatePlanner {
public:
  UpdatePlanner(const PatchHunk& hunk, const LineTable& table)
      : hunk_(hunk), table_(table), lines_(table) {}

  Result<std::vector<Replacement>> run() {
    std::vector<Replacement> out;
    std::size_t cursor = 0;
    for (std::size_t index = 0; index < hunk_.chunks.size(); ++index) {
      chunk_index_ = index;
      Status status = planChunk(hunk_.chunks[index], cursor, out);
      if (!status) return std::move(status).error();
    }
    return out;
  }

private:
  Error chunkError(ErrorCode code, const std::string& message) const {
    std::string where = hunk_.path;
    if (hunk_.chunks.size() > 1)
      where += " (chunk " + std::to_string(chunk_index_ + 1) + "/" +
               std::to_string(hunk_.chunks.size()) + ")";
    Error error = Error::make(code, where + ": " + message);
    error.data.path = hunk_.path;
    error.data.notes.push_back("patch line " +
                               std::to_string(hunk_.chunks[chunk_index_].patch_line));
    return error;
  }

  // Positions after following each `@@ text` header from `cursor`; empty set: not found.
  Result<std::set<std::size_t>> followContexts(const PatchChunk& chunk, std::size_t cursor) {
    std::set<std::size_t> starts{cursor};
    bool first = true;
    for (const std::string& context : chunk.contexts) {
      std::set<std::size_t> next;
      for (std::size_t start : starts) {
        std::vector<std::size_t> found = lines_.seek({context}, start, false);
        if (first)
          for (std::size_t at : found)
            next.insert(at + 1);
        else if (!found.empty())
          next.insert(found.front() + 1);
      }
      if (next.empty()) {
        Error error = chunkError(ErrorCode::NotFound,
                                 "failed to find context '" + context + "' (the @@ header line)");
        attachNearMiss(error, table_, context);
        return error;
      }
      starts = std::move(next);
      first = false;
    }
    return starts;
  }

  Status planChunk(PatchChunk chunk, std::size_t& cursor, std::vector<Replacement>& out) {
    Result<std::set<std::size_t>> starts = followContexts(chunk, cursor);
    if (!starts) return std::move(starts).error();
    std::vector<std::string> old_lines = oldLines(chunk);
    std::size_t at = 0;
    if (old_lines.empty()) {
      // Pure addition: after its `@@ text` header when it has one (codex: always at EOF).
      if (chunk.contexts.empty() || chunk.end_of_file) {
        at = lines_.size();
      } else if (starts->size() > 1) {
        return chunkError(ErrorCode::Ambiguous, "the @@ header '" + chunk.contexts.front() +
                                                    "' occurs " + std::to_string(starts->size()) +
                                                    " times (after " +
                                                    describeLines(toLines(shifted(*starts))) +
                                                    "); add a more specific @@ header");
      } else {
        at = *starts->begin();
      }
    } else {
      std::set<std::size_t> places = locate(chunk, old_lines, *starts);
      if (places.empty() && !old_lines.empty() && old_lines.back().empty()) {
        dropTrailingEmptyLine(chunk);
        old_lines = oldLines(chunk);
        places = locate(chunk, old_lines, *starts);
      }
      if (places.empty() && !chunk.contexts.empty() &&
          looseLineKey(old_lines.front()) == looseLineKey(chunk.contexts.back())) {
        // Superset: `@@ def f():` followed by `-def f():` — the header line is the first old
        // line (codex fails here).
        std::set<std::size_t> at_header;
        for (std::size_t start : *starts)
          at_header.insert(start - 1);
        places = locate(chunk, old_lines, at_header);
      }
      if (places.empty()) {
        Error error = chunkError(
            ErrorCode::NotFound,
            std::string(chunk.end_of_file ? "the expected lines are not the file's last lines "
                                            "(*** End of File):\n"
                                          : "failed to find expected lines:\n") +
                joinQuoted(old_lines));
        attachNearMiss(error, table_, joinQuoted(old_lines));
        return error;
      }
      if (places.size() > 1) {
        Error error = chunkError(ErrorCode::Ambiguous,
                                 "the expected lines occur " + std::to_string(places.size()) +
                                     " times (at " + describeLines(toLines(places)) +
                                     "); add context lines or an @@ header to choose one");
        error.data.candidate_lines = toLines(places);
        return error;
      }
      at = *places.begin();
    }
    emitRuns(chunk, at, out);
    cursor = at + old_lines.size();
    return Status::success();
  }

  static std::set<std::size_t> shifted(const std::set<std::size_t>& starts) {
    std::set<std::size_t> out;
    for (std::size_t s : starts)
      out.insert(s - 1);
    return out;
  }

  std::set<std::size_t> locate(const PatchChunk& chunk, const std::vector<std::string>& old_lines,
                               const std::set<std::size_t>& starts) const {
    std::set<std::size_t> places;
    for (std::size_t start : starts) {
      std::vector<std::size_t> found = lines_.seek(old_lines, start, chunk.end_of_file);
      if (found.empty()) continue;
      if (chunk.contexts.empty())
        places.insert(found.begin(), found.end()); // must be unique after the cursor
      else
        places.insert(found.front()); // the nearest after the @@ header
    }
    return places;
  }

  static std::vector<std::string> oldLines(const PatchChunk& chunk) {
    std::vector<std::string> out;
    for (const PatchLine& line : chunk.lines)
      if (line.kind != PatchLine::Add) out.push_back(line.text);
    return out;
  }

  // codex: when the old lines end with an empty line that is not in the file, retry without it
  // (and without a final empty added line).
  static void dropTrailingEmptyLine(PatchChunk& chunk) {
    auto& lines = chunk.lines;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      if (it->kind == PatchLine::Add) continue;
      const bool was_context = it->kind == PatchLine::Context;
      lines.erase(std::next(it).base());
      if (!was_context && !lines.empty() && lines.back().kind == PatchLine::Add &&
          lines.back().text.empty())
        lines.pop_back();
      return;
    }
  }

  // Context lines stay untouched; each run of removed/added lines between them is one
  // replacement of whole lines.
  void emitRuns(const PatchChunk& chunk, std::size_t at, std::vector<Replacement>& out) const {
    std::size_t line = at;
    std::optional<std::size_t> run_begin;
    std::vector<std::string> added;
    auto flush = [&] {
      if (!run_begin) return;
      out.push_back(runReplacement(*run_begin, line, added));
      run_begin.reset();
      added.clear();
    };
    for (const PatchLine& patch_line : chunk.lines) {
      switch (patch_line.kind) {
      case PatchLine::Context:
        flush();
        ++line;
        break;
      case PatchLine::Remove:
        if (!run_begin) run_begin = line;
        ++line;
        break;
      case PatchLine::Add:
        if (!run_begin) run_begin = line;
        added.push_back(patch_line.text);
        break;
      }
    }
    flush();
  }

  // Replaces file lines [first, end) with `added`, each followed by the file's first ending.
  Replacement runReplacement(std::size_t first, std::size_t end,
                             const std::vector<std::string>& added) const {
    const std::string eol(table_.firstLineEnding());
    Replacement r;
    r.line_ending = eol;
    r.edit_index = chunk_index_;
    r.label = "chunk";
    for (const std::string& text : added)
      r.new_text += text + eol;
    if (first < end) {
      r.begin = table_.contentBegin(first);
      r.end = table_.breakEnd(end - 1);
    } else if (first < lines_.size()) {
      r.begin = r.end = table_.contentBegin(first);
    } else if (lines_.size() == 0) {
      r.begin = r.end = table_.text().size();
    } else { // after the last line
      const std::size_t last = lines_.size() - 1;
      r.begin = r.end = table_.breakEnd(last);
      if (table_.terminator(last).empty() && !added.empty()) r.new_text = eol + r.new_text;
    }
    return r;
  }

  const PatchHunk& hunk_;
  const LineTable& table_;
  LineIndex lines_;
  std::size_t chunk_index_ = 0;
};

Error withPath(Error error, const std::string& path) {
  if (!error.data.path) error.data.path = path;
  return error;
}

Result<std::optional<FileSnapshot>> readFile(const PatchFileReader& read, const std::string& path) {
  Result<std::optional<FileSnapshot>> file = read(path);
  if (!file) return withPath(std::move(file).error(), path);
  return file;
}

Error fileNotFound(const std::string& path, std::string_view what) {
  Error error = Error::make(ErrorCode::FileNotFound,
                            "cannot " + std::string(what) + " " + path + ": no such file");
  error.data.path = path;
  return error;
}

} // namespace

std::string lexicalPath(std::string_view path) {
  std::vector<std::string> parts;
  const bool absolute = !path.empty() && path.front() == '/';
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t end = path.find('/', i);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(i, end - i);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..")
        parts.pop_back();
      else if (!absolute)
        parts.emplace_back("..");
    } else if (!part.empty() && part != ".") {
      parts.emplace_back(part);
    }
    i = end + 1;
  }
  std::string out = absolute ? "/" : "";
  for (std::size_t k = 0; k < parts.size(); ++k)
    out += (k ? "/" : "") + parts[k];
  return out;
}

Result<PatchPlan> planPatch(std::string_view patch_text, const PatchFileReader& read) {
  Result<Patch> patch = parsePatch(patch_text);
  if (!patch) return std::move(patch).error();
  return planPatch(*patch, read);
}

namespace {

// No two hunks may target one path (as source or destination of a move).
Status checkTargetsDistinct(const Patch& patch) {
  std::set<std::string> targets;
  for (const PatchHunk& hunk : patch.hunks) {
    for (const std::string* path : {&hunk.path, hunk.move_to ? &*hunk.move_to : nullptr}) {
      if (path == nullptr) continue;
      if (!targets.insert(lexicalPath(*path)).second) {
        Error error =
            Error::make(ErrorCode::PatchInvalid, "multiple operations target " + *path +
                                                     "; put all changes to one file in one hunk");
        error.data.path = *path;
        return error;
      }
    }
  }
  return Status::success();
}

// The text each hunk adds must be writable text (no pasted row prefixes, NULs and the like).
Status checkAddedText(const Patch& patch) {
  for (const PatchHunk& hunk : patch.hunks) {
    std::string added = hunk.add_content;
    for (const PatchChunk& chunk : hunk.chunks)
      for (const PatchLine& line : chunk.lines)
        if (line.kind == PatchLine::Add) added += line.text + "\n";
    if (Status pasted = checkWrittenText(added, "added"); !pasted) {
      Error error = std::move(pasted).error();
      error.message = hunk.path + ": " + error.message;
      error.data.path = hunk.path;
      return error;
    }
  }
  return Status::success();
}

PatchFilePlan planAdd(const PatchHunk& hunk, std::optional<FileSnapshot> current) {
  PatchFilePlan file;
  file.path = hunk.path;
  file.kind = PatchFileKind::Add;
  file.new_text = Rope(hunk.add_content);
  if (current) {
    file.base = std::move(*current);
    file.plan.base_version = file.base->version;
    file.plan.edits.push_back(ByteEdit{0, file.base->text.byteSize(), hunk.add_content});
    file.plan.warnings.push_back(hunk.path + " exists and is overwritten");
  }
  return file;
}

Result<PatchFilePlan> planDelete(const PatchHunk& hunk, std::optional<FileSnapshot> current) {
  if (!current) return fileNotFound(hunk.path, "delete");
  PatchFilePlan file;
  file.path = hunk.path;
  file.kind = PatchFileKind::Delete;
  file.base = std::move(*current);
  file.plan.base_version = file.base->version;
  return file;
}

// An update's chunks located in the file and turned into one plan; a move also reads (only to
// warn about) its destination.
Result<PatchFilePlan> planUpdate(const PatchHunk& hunk, std::optional<FileSnapshot> current,
                                 const PatchFileReader& read) {
  if (!current) return fileNotFound(hunk.path, "update");
  PatchFilePlan file;
  file.path = hunk.path;
  file.kind = hunk.move_to ? PatchFileKind::Move : PatchFileKind::Update;
  file.base = std::move(*current);
  LineTable table(file.base->text.toString());
  Result<std::vector<Replacement>> replacements = UpdatePlanner(hunk, table).run();
  if (!replacements) return std::move(replacements).error();
  BuildOptions options;
  options.edit_count = hunk.chunks.size();
  options.allow_no_change = true;
  Result<EditPlan> plan = buildPlan(table, file.base->version, std::move(*replacements), options);
  if (!plan) return withPath(std::move(plan).error(), hunk.path);
  file.plan = std::move(*plan);
  if (file.plan.edits.empty() && !hunk.move_to)
    file.plan.warnings.push_back(hunk.path + ": the update changes nothing");
  file.new_text = applyPlan(file.base->text, file.plan);
  if (hunk.move_to) {
    file.new_path = *hunk.move_to;
    Result<std::optional<FileSnapshot>> destination = readFile(read, *hunk.move_to);
    if (!destination) return std::move(destination).error();
    if (*destination) {
      file.overwrites_destination = true;
      file.plan.warnings.push_back(*hunk.move_to + " exists and is overwritten by the move");
    }
  }
  return file;
}

Result<PatchFilePlan> planFile(const PatchHunk& hunk, const PatchFileReader& read) {
  Result<std::optional<FileSnapshot>> current = readFile(read, hunk.path);
  if (!current) return std::move(current).error();
  switch (hunk.kind) {
  case PatchHunk::Add:
    return planAdd(hunk, std::move(*current));
  case PatchHunk::Delete:
    return planDelete(hunk, std::move(*current));
  case PatchHunk::Update:
    break;
  }
  return planUpdate(hunk, std::move(*current), read);
}

} // namespace

Result<PatchPlan> planPatch(const Patch& patch, const PatchFileReader& read) {
  if (patch.hunks.empty())
    return Error::make(ErrorCode::PatchInvalid,
                       "no files were modified: the patch has no Add/Delete/Update hunk");
  if (Status distinct = checkTargetsDistinct(patch); !distinct) return std::move(distinct).error();
  if (Status added = checkAddedText(patch); !added) return std::move(added).error();

  PatchPlan result;
  for (const PatchHunk& hunk : patch.hunks) {
    Result<PatchFilePlan> file = planFile(hunk, read);
    if (!file) return std::move(file).error();
    result.files.push_back(std::move(*file));
  }
  return result;
}

} // namespace hashline::forms
