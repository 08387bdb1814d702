// head/tail spans → EditPlan; see head_tail.h.
#include "engine/forms/head_tail.h"

#include "engine/forms/near_miss.h"
#include "engine/forms/plan_builder.h"
#include "engine/forms/text_search.h"
#include "engine/forms/written_text.h"

#include <algorithm>

namespace hashline::forms {
namespace {

Error batchError(Error error, std::size_t index, std::size_t count) {
  if (count > 1) error.inEdit(index, count);
  return error;
}

} // namespace

Result<EditPlan> planHeadTail(const Rope& base, std::int64_t version,
                              const std::vector<HeadTailEdit>& edits) {
  return planHeadTail(LineTable(base.toString()), version, edits);
}

Result<EditPlan> planHeadTail(const LineTable& table, std::int64_t version,
                              const std::vector<HeadTailEdit>& edits) {
  const std::size_t count = edits.size();
  if (count == 0)
    return Error::make(ErrorCode::NotFound, "no edits given")
        .withHint("give at least one {head, tail, new}");
  TextSearcher searcher(table);
  std::vector<Replacement> replacements;
  for (std::size_t index = 0; index < count; ++index) {
    const HeadTailEdit& edit = edits[index];
    if (edit.head.empty() || edit.tail.empty())
      return batchError(Error::make(ErrorCode::NotFound,
                                    std::string(edit.head.empty() ? "head" : "tail") +
                                        " is empty; quote the first and last lines of the span")
                            .withHint("quote the span's first line(s) as head and its last "
                                      "line(s) as tail"),
                        index, count);
    if (Status pasted = checkWrittenText(edit.new_text, "new text"); !pasted)
      return batchError(std::move(pasted).error(), index, count);
    // Quoted ends pasted from a read keep their prefixes out of the search.
    const std::string head_text = stripReadPrefixes(edit.head).value_or(edit.head);
    const std::string tail_text = stripReadPrefixes(edit.tail).value_or(edit.tail);
    std::optional<TextSearch> head = searcher.find(head_text);
    if (!head) {
      Error error = Error::make(ErrorCode::NotFound, "could not find the head text in the file");
      error.withHint("re-read the file and copy the span's first line(s) exactly as head");
      attachNearMiss(error, table, head_text);
      return batchError(std::move(error), index, count);
    }
    if (head->loose_matches.size() > 1) {
      std::vector<std::uint32_t> lines = matchLines(table, head->loose_matches);
      Error error = Error::make(ErrorCode::Ambiguous,
                                "found " + std::to_string(head->loose_matches.size()) +
                                    " occurrences of the head text (at " + describeLines(lines) +
                                    "); it must be unique: quote more of the first lines");
      error.withHint("quote more of the span's first lines so the head matches one place");
      error.data.candidate_lines = lines;
      return batchError(std::move(error), index, count);
    }
    const TextMatch head_match = head->matches.front();
    std::optional<TextSearch> tail = searcher.find(tail_text, head_match.end);
    if (!tail) {
      Error error = Error::make(ErrorCode::NotFound,
                                "could not find the tail text after the head (line " +
                                    std::to_string(table.lineOfByte(head_match.begin) + 1) + ")");
      error.withHint("copy the span's last line(s) exactly as tail; it must come after the head");
      attachNearMiss(error, table, tail_text);
      return batchError(std::move(error), index, count);
    }
    const std::vector<TextMatch>& tails =
        tail->loose_matches.empty() ? tail->matches : tail->loose_matches;
    TextMatch tail_match =
        *std::min_element(tails.begin(), tails.end(),
                          [](const TextMatch& a, const TextMatch& b) { return a.begin < b.begin; });
    Replacement r;
    r.begin = head_match.begin;
    r.end = tail_match.end;
    r.new_text = edit.new_text;
    r.line_ending = std::string(table.lineEndingAt(table.lineOfByte(head_match.begin)));
    r.edit_index = index;
    replacements.push_back(std::move(r));
  }
  BuildOptions options;
  options.edit_count = count;
  return buildPlan(table, version, std::move(replacements), options);
}

} // namespace hashline::forms
