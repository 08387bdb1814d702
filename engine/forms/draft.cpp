// Lazy drafts → EditPlan by resolving each elision through unique context; see draft.h.
#include "engine/forms/draft.h"

#include "engine/forms/line_range.h"
#include "engine/forms/loose_keys.h"
#include "engine/forms/near_miss.h"
#include "engine/forms/plan_builder.h"
#include "engine/forms/text_fold.h"
#include "engine/forms/text_search.h"
#include "engine/forms/written_text.h"

#include <optional>
#include <string>
#include <vector>

namespace hashline::forms {
namespace {

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Strips a leading "..." or "…"; false when there is none.
bool stripEllipsis(std::string_view& text) {
  for (std::string_view dots : {std::string_view("..."), std::string_view("\xE2\x80\xA6")}) {
    if (startsWith(text, dots)) {
      text.remove_prefix(dots.size());
      return true;
    }
  }
  return false;
}

bool endsWithEllipsis(std::string_view text) {
  return text.ends_with("...") || text.ends_with("\xE2\x80\xA6");
}

struct Segment {
  std::vector<std::string> lines;
  std::size_t first_draft_line = 0; // 0-based
};

struct Elision {
  std::size_t draft_line = 0; // 0-based
};

struct Anchor {
  std::size_t position = 0; // first file line of the matched block
  std::size_t length = 0;   // lines in the block
};

class DraftResolver {
public:
  DraftResolver(const LineTable& table, std::string_view draft) : table_(table), file_keys_(table) {
    split(draft);
  }

  Result<std::vector<Replacement>> run() {
    const std::size_t n = elisions_.size();
    const std::size_t file_lines = file_keys_.size();
    std::vector<std::size_t> seg_start(n + 1, 0), seg_end(n + 1, 0);
    if (!segments_[0].lines.empty()) {
      Result<Anchor> head = anchor(segments_[0], /*forward=*/true, 0,
                                   "the draft's first line (it must be an unchanged line, or "
                                   "start the draft with an elision)");
      if (!head) return std::move(head).error();
      seg_start[0] = head->position;
    }
    for (std::size_t i = 1; i <= n; ++i) {
      const std::string name = "elision " + std::to_string(i) + " (draft line " +
                               std::to_string(elisions_[i - 1].draft_line + 1) + ")";
      std::size_t kept_from = seg_start[i - 1];
      if (!segments_[i - 1].lines.empty()) {
        Result<Anchor> before =
            anchor(segments_[i - 1], /*forward=*/false, seg_start[i - 1],
                   name + ": the line before it (it must be an unchanged line of the file)");
        if (!before) return std::move(before).error();
        kept_from = before->position + before->length;
        seg_end[i - 1] = kept_from;
      }
      if (!segments_[i].lines.empty()) {
        Result<Anchor> after =
            anchor(segments_[i], /*forward=*/true, kept_from,
                   name + ": the line after it (it must be an unchanged line of the file)");
        if (!after) return std::move(after).error();
        seg_start[i] = after->position;
      } else {
        seg_start[i] = seg_end[i] = file_lines; // a trailing elision keeps the rest
      }
    }
    if (!segments_[n].lines.empty()) {
      Result<Anchor> tail = anchor(segments_[n], /*forward=*/false, seg_start[n],
                                   "the draft's last line (it must be an unchanged line, or end "
                                   "the draft with an elision)");
      if (!tail) return std::move(tail).error();
      seg_end[n] = tail->position + tail->length;
    }
    std::vector<Replacement> out;
    for (std::size_t i = 0; i <= n; ++i) {
      if (segments_[i].lines.empty()) continue;
      LineSplice splice =
          spliceLines(table_, static_cast<std::int64_t>(seg_start[i]),
                      static_cast<std::int64_t>(seg_end[i]) - 1, segments_[i].lines);
      Replacement r;
      r.begin = splice.begin;
      r.end = splice.end;
      r.new_text = std::move(splice.text);
      r.line_ending = std::string(table_.lineEndingAt(seg_start[i]));
      r.edit_index = i;
      r.label = "draft part";
      r.ignore_trailing_whitespace = true;
      out.push_back(std::move(r));
    }
    return out;
  }

private:
  void split(std::string_view draft) {
    segments_.emplace_back();
    std::vector<std::string> lines = splitLines(draft);
    bool previous_was_elision = false;
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (isElisionLine(lines[k])) {
        if (!previous_was_elision) {
          elisions_.push_back(Elision{k});
          segments_.emplace_back();
          segments_.back().first_draft_line = k + 1;
        }
        previous_was_elision = true;
        continue;
      }
      previous_was_elision = false;
      segments_.back().lines.push_back(lines[k]);
    }
  }

  std::vector<std::size_t> blockPositions(const std::vector<std::string>& keys,
                                          std::size_t from) const {
    std::vector<std::size_t> out;
    for (std::size_t at = from; at + keys.size() <= file_keys_.size(); ++at) {
      bool match = true;
      for (std::size_t k = 0; k < keys.size() && match; ++k)
        match = file_keys_[at + k] == keys[k];
      if (match) out.push_back(at);
    }
    return out;
  }

  // The smallest block at the segment's start (forward) or end (backward) that occurs exactly
  // once at or after file line `from`.
  Result<Anchor> anchor(const Segment& segment, bool forward, std::size_t from,
                        const std::string& what) const {
    const std::size_t size = segment.lines.size();
    std::vector<std::size_t> previous;
    for (std::size_t k = 1; k <= size; ++k) {
      std::vector<std::string> keys;
      for (std::size_t j = 0; j < k; ++j)
        keys.push_back(looseLineKey(segment.lines[forward ? j : size - k + j]));
      std::vector<std::size_t> found = blockPositions(keys, from);
      if (found.size() == 1) return Anchor{found.front(), k};
      if (found.empty()) {
        if (k == 1) {
          const std::string& line = segment.lines[forward ? 0 : size - 1];
          Error error =
              Error::make(ErrorCode::NotFound, what + ", '" + line + "', is not in the file");
          error.withHint("re-read the file; the lines around each `... existing code ...` must be "
                         "copied exactly from it");
          attachNearMiss(error, table_, line);
          return error;
        }
        break; // the context became a changed line before it became unique
      }
      previous = std::move(found);
    }
    std::vector<std::uint32_t> lines;
    for (std::size_t p : previous)
      lines.push_back(static_cast<std::uint32_t>(p + 1));
    Error error = Error::make(ErrorCode::Ambiguous,
                              what + " matches " + std::to_string(previous.size()) + " places (" +
                                  describeLines(lines) +
                                  "); include more unchanged lines next to the elision");
    error.withHint("include more unchanged lines next to the `... existing code ...` line");
    error.data.candidate_lines = lines;
    return error;
  }

  const LineTable& table_;
  LooseLineKeys file_keys_;
  std::vector<Segment> segments_;
  std::vector<Elision> elisions_;
};

} // namespace

bool isElisionLine(std::string_view line) {
  std::string_view text = trimUnicode(line);
  if (text.empty()) return false;
  std::string_view rest = text;
  if (stripEllipsis(rest)) {
    rest = trimUnicode(rest);
    return rest.empty() ||
           (endsWithEllipsis(rest) && rest.find_first_of("(){}[];=") == std::string_view::npos);
  }
  for (std::string_view opener : {"{/*", "<!--", "/*", "//", "#", "--", ";", "%", "(*"}) {
    if (!startsWith(text, opener)) continue;
    rest = trimUnicode(text.substr(opener.size()));
    return stripEllipsis(rest);
  }
  return false;
}

Result<EditPlan> planDraft(const Rope& base, std::int64_t version, std::string_view draft) {
  return planDraft(LineTable(base.toString()), version, draft);
}

Result<EditPlan> planDraft(const LineTable& table, std::int64_t version, std::string_view draft) {
  if (trimUnicode(draft).empty())
    return Error::make(ErrorCode::NoChange, "the draft is empty")
        .withHint("give the new text of the region, with `... existing code ...` lines for what "
                  "stays");
  if (Status pasted = checkWrittenText(draft, "draft"); !pasted) return std::move(pasted).error();
  DraftResolver resolver(table, draft);
  Result<std::vector<Replacement>> replacements = resolver.run();
  if (!replacements) return std::move(replacements).error();
  BuildOptions options;
  options.edit_count = replacements->size();
  options.edit_count = options.edit_count == 0 ? 1 : options.edit_count;
  return buildPlan(table, version, std::move(*replacements), options);
}

} // namespace hashline::forms
