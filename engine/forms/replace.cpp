// old/new edits → EditPlan; see replace.h.
#include "engine/forms/replace.h"

#include "engine/forms/near_miss.h"
#include "engine/forms/plan_builder.h"
#include "engine/forms/text_search.h"
#include "engine/forms/written_text.h"

namespace hashline::forms {
namespace {

Error batchError(Error error, std::size_t index, std::size_t count) {
  if (count > 1) error.inEdit(index, count);
  return error;
}

struct QuoteStyle {
  bool double_quotes = false;
  bool single_quotes = false;
};

// The file writes quotes typographically where the agent wrote straight ones: the matched text
// has curly quotes of a kind and no straight ones of it, while the old text has straight ones.
QuoteStyle typographicQuotes(const LineTable& table, const std::vector<TextMatch>& matches,
                             std::string_view old_text) {
  QuoteStyle style{true, true};
  for (const TextMatch& match : matches) {
    std::string_view region =
        std::string_view(table.text()).substr(match.begin, match.end - match.begin);
    auto has = [&](std::string_view what) { return region.find(what) != std::string_view::npos; };
    style.double_quotes =
        style.double_quotes && !has("\"") && (has("\xE2\x80\x9C") || has("\xE2\x80\x9D"));
    style.single_quotes =
        style.single_quotes && !has("'") && (has("\xE2\x80\x98") || has("\xE2\x80\x99"));
  }
  style.double_quotes = style.double_quotes && old_text.find('"') != std::string_view::npos;
  style.single_quotes = style.single_quotes && old_text.find('\'') != std::string_view::npos;
  return style;
}

// Where one edit's old text occurs, and the old text that matched: read prefixes pasted into it
// are stripped when only that makes it match.
struct FoundOldText {
  TextSearch search;
  std::string old_text;
};

Result<FoundOldText> findOldText(const LineTable& table, TextSearcher& searcher,
                                 const OldNewEdit& edit, std::size_t index,
                                 std::vector<std::string>& warnings) {
  std::string old_text = edit.old_text;
  std::optional<TextSearch> search = searcher.find(old_text);
  if (!search) {
    if (std::optional<std::string> stripped = stripReadPrefixes(old_text)) {
      search = searcher.find(*stripped);
      if (search) {
        old_text = std::move(*stripped);
        warnings.push_back("edit " + std::to_string(index + 1) +
                           ": read prefixes (LINE:LLL:BBB\xE2\x86\x92) removed from the old text");
      }
    }
  }
  if (!search) {
    Error error = Error::make(ErrorCode::NotFound,
                              "could not find the old text in the file; it must match the file "
                              "including line breaks (whitespace at line ends, Unicode quotes, "
                              "dashes and spaces are forgiven)");
    attachNearMiss(error, table, edit.old_text);
    return error;
  }
  return FoundOldText{std::move(*search), std::move(old_text)};
}

// The matches to replace: all of them with replace_all, else the one and only.
Result<std::vector<TextMatch>> chooseMatches(const LineTable& table, const TextSearch& search,
                                             bool replace_all) {
  if (replace_all) return TextSearcher::nonOverlapping(search.matches);
  if (search.loose_matches.size() <= 1) return search.matches;
  std::vector<std::uint32_t> lines = matchLines(table, search.loose_matches);
  std::string message = "found " + std::to_string(search.loose_matches.size()) +
                        " occurrences of the old text (at " + describeLines(lines) + ")";
  if (search.loose_matches.size() != search.matches.size())
    message += ", counting near-identical text (" + std::to_string(search.matches.size()) + " " +
               std::string(levelDescription(search.level)) + ")";
  message += "; it must be unique: add surrounding lines, or set replace_all";
  Error error = Error::make(ErrorCode::Ambiguous, std::move(message));
  error.data.candidate_lines = lines;
  return error;
}

// Checks one edit and appends its replacements (and any warnings about how it matched).
Status planOneEdit(const LineTable& table, TextSearcher& searcher, const OldNewEdit& edit,
                   std::size_t index, std::vector<Replacement>& replacements,
                   std::vector<std::string>& warnings) {
  if (edit.old_text.empty())
    return Error::make(ErrorCode::NotFound,
                       "old text is empty; give the exact text to replace (use a "
                       "write to create or overwrite a file)")
        .withHint("quote the exact text to replace as old");
  if (Status pasted = checkWrittenText(edit.new_text, "new text"); !pasted) return pasted;
  Result<FoundOldText> found = findOldText(table, searcher, edit, index, warnings);
  if (!found) return std::move(found).error();
  const TextSearch& search = found->search;
  Result<std::vector<TextMatch>> chosen = chooseMatches(table, search, edit.replace_all);
  if (!chosen) return std::move(chosen).error();
  if (search.level != FoldLevel::LineEndings)
    warnings.push_back("edit " + std::to_string(index + 1) + ": " +
                       std::string(levelDescription(search.level)));
  const QuoteStyle quotes = search.level == FoldLevel::Compatibility
                                ? typographicQuotes(table, *chosen, found->old_text)
                                : QuoteStyle{};
  if (quotes.double_quotes || quotes.single_quotes)
    warnings.push_back("edit " + std::to_string(index + 1) +
                       ": quotes written in the file's typographic style");
  for (const TextMatch& match : *chosen) {
    Replacement r;
    r.begin = match.begin;
    r.end = match.end;
    r.new_text = edit.new_text;
    r.old_text = found->old_text;
    r.line_ending = std::string(table.lineEndingAt(table.lineOfByte(match.begin)));
    r.edit_index = index;
    r.curly_double_quotes = quotes.double_quotes;
    r.curly_single_quotes = quotes.single_quotes;
    replacements.push_back(std::move(r));
  }
  return Status::success();
}

} // namespace

Result<EditPlan> planReplace(const Rope& base, std::int64_t version,
                             const std::vector<OldNewEdit>& edits) {
  return planReplace(LineTable(base.toString()), version, edits);
}

Result<EditPlan> planReplace(const LineTable& table, std::int64_t version,
                             const std::vector<OldNewEdit>& edits) {
  const std::size_t count = edits.size();
  if (count == 0)
    return Error::make(ErrorCode::NotFound, "no edits given: edits must contain at least one "
                                            "{old, new} replacement")
        .withHint("give at least one {old, new}");
  TextSearcher searcher(table);
  std::vector<Replacement> replacements;
  std::vector<std::string> warnings;
  for (std::size_t index = 0; index < count; ++index)
    if (Status status = planOneEdit(table, searcher, edits[index], index, replacements, warnings);
        !status)
      return batchError(std::move(status).error(), index, count);
  BuildOptions options;
  options.edit_count = count;
  Result<EditPlan> plan = buildPlan(table, version, std::move(replacements), options);
  if (!plan) return plan;
  for (std::string& warning : warnings)
    plan->warnings.push_back(std::move(warning));
  return plan;
}

} // namespace hashline::forms
