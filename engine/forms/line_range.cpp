// Versioned line ranges → EditPlan, with exact rebasing through the ChangeLog; see line_range.h.
#include "engine/forms/line_range.h"

#include "engine/forms/plan_builder.h"
#include "engine/forms/written_text.h"

namespace hashline::forms {
namespace {

std::string joinLines(const std::vector<std::string>& lines, std::string_view ending) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += ending;
    out += lines[i];
  }
  return out;
}

Error staleVersion(std::int64_t from_version, std::int64_t current_version) {
  return Error::make(ErrorCode::StaleVersion,
                     "the lines were read at version " + std::to_string(from_version) +
                         "; the file is at version " + std::to_string(current_version) +
                         " and its change history cannot map them; re-read the file");
}

} // namespace

Result<RebasedLines> rebaseLines(const LineHistory& history, const LineTable& table,
                                 std::int64_t from_version, std::int64_t first, std::int64_t last) {
  const auto count = static_cast<std::int64_t>(table.lineCount());
  if (from_version == history.current_version) {
    if (first < 0 || last >= count || last < first - 1)
      return Error::make(ErrorCode::OutOfRange,
                         "lines " + std::to_string(first + 1) + "-" + std::to_string(last + 1) +
                             " are outside the file (" + std::to_string(count) + " lines)");
    return RebasedLines{static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(last), false};
  }
  if (history.log == nullptr || from_version > history.current_version ||
      !history.log->covers(from_version) ||
      history.log->currentVersion() != history.current_version)
    return staleVersion(from_version, history.current_version);
  if (first < 0 || last < first - 1)
    return Error::make(ErrorCode::OutOfRange, "invalid line range " + std::to_string(first + 1) +
                                                  "-" + std::to_string(last + 1));
  const ChangeLog& log = *history.log;
  if (last == first - 1) {
    // The gap before `first`: carried with the line above it (insert after it) or the top.
    if (first == 0) return RebasedLines{0, static_cast<std::uint32_t>(-1) /* unused */, false};
    auto above = log.mapLine(from_version, static_cast<std::uint32_t>(first - 1));
    if (!above) return staleVersion(from_version, history.current_version);
    if (above->kind == LineFate::Changed) {
      Error error = Error::make(
          ErrorCode::StaleAnchor,
          "line " + std::to_string(first) + " (read at version " + std::to_string(from_version) +
              ") changed since; re-read around line " + std::to_string(above->line + 1));
      error.data.candidate_lines = {above->line + 1};
      if (above->line < table.lineCount())
        error.data.current_text = table.numberedExcerpt(above->line, above->line);
      return error;
    }
    std::uint32_t at = above->line + 1;
    return RebasedLines{at, at - 1, at != first};
  }
  auto touched = log.rangeTouched(from_version, static_cast<std::uint32_t>(first),
                                  static_cast<std::uint32_t>(last));
  auto mapped_first = log.mapLine(from_version, static_cast<std::uint32_t>(first));
  if (!touched || !mapped_first) return staleVersion(from_version, history.current_version);
  if (*touched || mapped_first->kind == LineFate::Changed) {
    std::uint32_t now = mapped_first->line;
    Error error = Error::make(
        ErrorCode::StaleAnchor,
        "lines " + std::to_string(first + 1) + "-" + std::to_string(last + 1) +
            " (read at version " + std::to_string(from_version) +
            ") changed since; re-read them (now around line " + std::to_string(now + 1) + ")");
    error.data.candidate_lines = {now + 1};
    if (now < table.lineCount())
      error.data.current_text =
          table.numberedExcerpt(now, static_cast<std::size_t>(now + (last - first)));
    return error;
  }
  std::uint32_t new_first = mapped_first->line;
  std::uint32_t new_last = new_first + static_cast<std::uint32_t>(last - first);
  if (new_last >= table.lineCount())
    return Error::make(ErrorCode::OutOfRange, "lines " + std::to_string(first + 1) + "-" +
                                                  std::to_string(last + 1) +
                                                  " are outside the file");
  return RebasedLines{new_first, new_last, new_first != first};
}

LineSplice spliceLines(const LineTable& table, std::int64_t first, std::int64_t last,
                       const std::vector<std::string>& lines) {
  const auto count = static_cast<std::int64_t>(table.lineCount());
  LineSplice splice;
  if (last < first) { // insertion before `first`
    if (first == 0) {
      splice.begin = splice.end = table.contentBegin(0);
      std::string_view ending = table.firstLineEnding();
      splice.text = joinLines(lines, ending) + std::string(ending);
      return splice;
    }
    const auto above = static_cast<std::size_t>(first - 1);
    std::string_view ending = table.lineEndingAt(above);
    if (!table.terminator(above).empty()) {
      splice.begin = splice.end = table.breakEnd(above);
      splice.text = joinLines(lines, ending) + std::string(ending);
    } else { // after an unterminated last line: keep the file unterminated
      splice.begin = splice.end = table.contentEnd(above);
      splice.text = std::string(ending) + joinLines(lines, ending);
    }
    return splice;
  }
  const auto f = static_cast<std::size_t>(first), l = static_cast<std::size_t>(last);
  std::string_view ending = table.lineEndingAt(f);
  if (lines.empty()) {
    if (last == count - 1 && table.terminator(l).empty() && f > 0) {
      splice.begin = table.contentEnd(f - 1);
      splice.end = table.contentEnd(l);
    } else {
      splice.begin = table.contentBegin(f);
      splice.end = table.breakEnd(l);
    }
    return splice;
  }
  splice.begin = table.contentBegin(f);
  splice.end = table.breakEnd(l);
  splice.text = joinLines(lines, ending);
  if (!table.terminator(l).empty()) splice.text += ending;
  return splice;
}

Result<EditPlan> planLineRange(const Rope& base, const LineHistory& history,
                               const std::vector<LineRangeEdit>& edits) {
  return planLineRange(LineTable(base.toString()), history, edits);
}

Result<EditPlan> planLineRange(const LineTable& table, const LineHistory& history,
                               const std::vector<LineRangeEdit>& edits) {
  const std::size_t count = edits.size();
  if (count == 0)
    return Error::make(ErrorCode::OutOfRange, "no line ranges given")
        .withHint("give at least one {start, end, content, version}");
  std::vector<Replacement> replacements;
  std::vector<Rebase> rebased;
  for (std::size_t index = 0; index < count; ++index) {
    const LineRangeEdit& edit = edits[index];
    const std::int64_t first = std::int64_t(edit.start_line) - 1;
    const std::int64_t last = std::int64_t(edit.end_line) - 1;
    if (edit.start_line < 1 || last < first - 1) {
      Error error = Error::make(ErrorCode::OutOfRange,
                                "invalid line range " + std::to_string(edit.start_line) + "-" +
                                    std::to_string(edit.end_line) +
                                    " (lines are 1-based; end = start - 1 inserts)");
      if (count > 1) error.inEdit(index, count);
      return error;
    }
    if (Status pasted = checkWrittenText(edit.content, "content"); !pasted) {
      Error error = std::move(pasted).error();
      if (count > 1) error.inEdit(index, count);
      return error;
    }
    // Appending after the last line is an insertion before "line count + 1".
    const bool append = last == first - 1 && first == std::int64_t(table.lineCount()) &&
                        edit.version == history.current_version;
    Result<RebasedLines> lines =
        append ? Result<RebasedLines>(RebasedLines{static_cast<std::uint32_t>(first),
                                                   static_cast<std::uint32_t>(last), false})
               : rebaseLines(history, table, edit.version, first, last);
    if (!lines) {
      Error error = std::move(lines).error();
      if (count > 1) error.inEdit(index, count);
      return error;
    }
    const std::int64_t new_first = lines->first;
    const std::int64_t new_last = last < first ? new_first - 1 : std::int64_t(lines->last);
    if (lines->moved) {
      rebased.push_back(Rebase{edit.start_line, static_cast<std::uint32_t>(new_first + 1)});
    }
    LineSplice splice = spliceLines(table, new_first, new_last, splitLines(edit.content));
    Replacement r;
    r.begin = splice.begin;
    r.end = splice.end;
    r.new_text = std::move(splice.text);
    r.line_ending = std::string(table.lineEndingAt(std::min<std::size_t>(
        static_cast<std::size_t>(std::max<std::int64_t>(new_first, 0)), table.lineCount() - 1)));
    r.edit_index = index;
    replacements.push_back(std::move(r));
  }
  BuildOptions options;
  options.edit_count = count;
  Result<EditPlan> plan =
      buildPlan(table, history.current_version, std::move(replacements), options);
  if (plan) plan->rebased = std::move(rebased);
  return plan;
}

} // namespace hashline::forms
