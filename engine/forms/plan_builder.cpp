// Replacements → EditPlan: overlap check, unchanged-line trimming, line endings; see
// plan_builder.h.
#include "engine/forms/plan_builder.h"

#include "engine/forms/text_fold.h"

#include <algorithm>
#include <string_view>

namespace hashline::forms {
namespace {

// A text cut into lines that keep their terminator; `normalized` has every terminator as "\n".
struct Units {
  std::vector<std::string_view> raw;
  std::vector<std::string> normalized;
};

Units cutUnits(std::string_view text) {
  Units units;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = i;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r')
      ++end;
    std::size_t brk = end;
    if (brk < text.size())
      brk += (text[brk] == '\r' && brk + 1 < text.size() && text[brk + 1] == '\n') ? 2 : 1;
    units.raw.push_back(text.substr(i, brk - i));
    std::string norm(text.substr(i, end - i));
    if (brk > end) norm.push_back('\n');
    units.normalized.push_back(std::move(norm));
    i = brk;
  }
  return units;
}

bool endsWithNewline(const std::string& unit) {
  return !unit.empty() && unit.back() == '\n';
}

std::string describeRange(const LineTable& table, std::size_t begin, std::size_t end) {
  std::size_t first = table.lineOfByte(begin) + 1;
  std::size_t last = table.lineOfByte(end > begin ? end - 1 : begin) + 1;
  if (first == last) return "line " + std::to_string(first);
  return "lines " + std::to_string(first) + "-" + std::to_string(last);
}

bool sortsBefore(const Replacement& a, const Replacement& b) {
  if (a.begin != b.begin) return a.begin < b.begin;
  bool a_insert = a.begin == a.end, b_insert = b.begin == b.end;
  if (a_insert != b_insert) return a_insert;
  return a.edit_index < b.edit_index;
}

Status checkOverlaps(const LineTable& table, std::vector<Replacement>& sorted,
                     std::size_t edit_count) {
  const Replacement* widest = nullptr; // the non-empty replacement reaching furthest so far
  for (const Replacement& r : sorted) {
    if (widest != nullptr) {
      bool clash = r.begin == r.end ? (r.begin > widest->begin && r.begin < widest->end)
                                    : r.begin < widest->end;
      if (clash) {
        const Replacement& first = widest->edit_index <= r.edit_index ? *widest : r;
        const Replacement& second = widest->edit_index <= r.edit_index ? r : *widest;
        Error error =
            Error::make(ErrorCode::OverlappingEdits,
                        first.label + " " + std::to_string(first.edit_index + 1) + " (" +
                            describeRange(table, first.begin, first.end) + ") and " + second.label +
                            " " + std::to_string(second.edit_index + 1) + " (" +
                            describeRange(table, second.begin, second.end) +
                            ") overlap; merge them into one edit or target disjoint regions");
        error.data.edit_index = second.edit_index;
        error.data.edit_count = edit_count;
        error.data.candidate_lines = {
            static_cast<std::uint32_t>(table.lineOfByte(first.begin) + 1),
            static_cast<std::uint32_t>(table.lineOfByte(second.begin) + 1)};
        return error;
      }
    }
    if (r.begin != r.end && (widest == nullptr || r.end > widest->end)) widest = &r;
  }
  return Status::success();
}

// Shrinks `r` to the lines that really change; returns false when nothing changes.
bool trimUnchanged(const LineTable& table, Replacement& r) {
  std::string_view original = std::string_view(table.text()).substr(r.begin, r.end - r.begin);
  Units orig = cutUnits(original);
  Units fresh = cutUnits(r.new_text);
  Units old;
  bool use_old = false;
  if (r.old_text) {
    old = cutUnits(*r.old_text);
    use_old = old.normalized.size() == orig.normalized.size();
  }
  auto loose = [](const std::string& unit) {
    const bool newline = endsWithNewline(unit);
    return std::string(trimEndUnicode(newline ? std::string_view(unit).substr(0, unit.size() - 1)
                                              : std::string_view(unit))) +
           (newline ? "\n" : "");
  };
  auto same = [&](std::size_t orig_index, std::size_t new_index) {
    const std::string& candidate = fresh.normalized[new_index];
    if (candidate == orig.normalized[orig_index] ||
        (use_old && candidate == old.normalized[orig_index]))
      return true;
    return r.ignore_trailing_whitespace && loose(candidate) == loose(orig.normalized[orig_index]);
  };
  const std::size_t n_orig = orig.normalized.size(), n_new = fresh.normalized.size();
  std::size_t prefix = 0;
  while (prefix < n_orig && prefix < n_new && endsWithNewline(orig.normalized[prefix]) &&
         endsWithNewline(fresh.normalized[prefix]) && same(prefix, prefix))
    ++prefix;
  std::size_t suffix = 0;
  while (suffix < n_orig - prefix && suffix < n_new - prefix &&
         same(n_orig - 1 - suffix, n_new - 1 - suffix))
    ++suffix;
  std::size_t cut_front = 0, cut_back = 0;
  for (std::size_t k = 0; k < prefix; ++k)
    cut_front += orig.raw[k].size();
  for (std::size_t k = 0; k < suffix; ++k)
    cut_back += orig.raw[n_orig - 1 - k].size();
  std::string middle;
  for (std::size_t k = prefix; k < n_new - suffix; ++k)
    middle += fresh.normalized[k];
  if (r.curly_double_quotes || r.curly_single_quotes)
    middle = curlQuotes(middle, r.curly_double_quotes, r.curly_single_quotes);
  r.begin += cut_front;
  r.end -= cut_back;
  r.new_text = withLineEndings(middle, r.line_ending);
  r.old_text.reset();
  return std::string_view(table.text()).substr(r.begin, r.end - r.begin) != r.new_text;
}

} // namespace

std::string curlQuotes(std::string_view text, bool double_quotes, bool single_quotes) {
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool curl = (c == '"' && double_quotes) || (c == '\'' && single_quotes);
    if (!curl) {
      out.push_back(c);
      continue;
    }
    const char before = i == 0 ? ' ' : text[i - 1];
    const bool opening = before == ' ' || before == '\t' || before == '\n' || before == '(' ||
                         before == '[' || before == '{';
    if (c == '"')
      out += opening ? "\xE2\x80\x9C" : "\xE2\x80\x9D";
    else
      out += opening ? "\xE2\x80\x98" : "\xE2\x80\x99";
  }
  return out;
}

Result<EditPlan> buildPlan(const LineTable& table, std::int64_t base_version,
                           std::vector<Replacement> replacements, const BuildOptions& options) {
  std::stable_sort(replacements.begin(), replacements.end(), sortsBefore);
  if (Status overlap = checkOverlaps(table, replacements, options.edit_count); !overlap)
    return std::move(overlap).error();

  EditPlan plan;
  plan.base_version = base_version;
  std::vector<Replacement> kept;
  for (Replacement& r : replacements) {
    if (trimUnchanged(table, r))
      kept.push_back(std::move(r));
    else if (options.edit_count > 1)
      plan.warnings.push_back(r.label + " " + std::to_string(r.edit_index + 1) + "/" +
                              std::to_string(options.edit_count) + " changes nothing");
  }
  if (kept.empty() && !options.allow_no_change)
    return Error::make(ErrorCode::NoChange,
                       "no changes made: the replacement produced identical content");
  std::stable_sort(kept.begin(), kept.end(), sortsBefore);
  for (Replacement& r : kept)
    plan.edits.push_back(ByteEdit{r.begin, r.end, std::move(r.new_text)});
  return plan;
}

} // namespace hashline::forms
