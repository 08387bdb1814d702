// Verifying a batch of anchored edits into one EditPlan; see verifier.h for the rules.
#include "engine/verify/verifier.h"

#include "engine/anchors/anchor_computer.h"
#include "engine/anchors/read_lines.h"
#include "engine/verify/anchor_resolver.h"
#include "engine/verify/line_plan.h"
#include "engine/verify/text_checks.h"

#include <algorithm>

namespace hashline {
namespace {

enum class Position { AtAnchor, Top, End };

struct ParsedEdit {
  std::size_t index = 0;
  EditOp op = EditOp::Replace;
  Position position = Position::AtAnchor;
  std::optional<Anchor> anchor;
  std::optional<Anchor> end;
  std::vector<std::string> lines;
};

struct ResolvedEdit {
  ParsedEdit parsed;
  LineOp op;
  std::string label; // in the agent's numbering: "replace lines 3-5"
  std::vector<Rebase> rebases;
};

std::string linesLabel(std::uint32_t first, std::uint32_t last) {
  return first == last ? "line " + std::to_string(first)
                       : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

std::string editLabel(const ParsedEdit& edit) {
  const std::string name(editOpName(edit.op));
  if (edit.position == Position::Top) return "insert at the top";
  if (edit.position == Position::End) return "insert at the end";
  const std::uint32_t first = edit.anchor->line;
  const std::uint32_t last = edit.end ? edit.end->line : first;
  switch (edit.op) {
  case EditOp::InsertAfter:
    return "insert after line " + std::to_string(first);
  case EditOp::InsertBefore:
    return "insert before line " + std::to_string(first);
  case EditOp::Write:
    return "write";
  default:
    return name + " " + linesLabel(first, last);
  }
}

std::optional<Position> positionKeyword(std::string_view text) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  if (text == "0" || text == "0:") return Position::Top;
  if (text == "EOF" || text == "eof") return Position::End;
  return std::nullopt;
}

Status checkContent(const std::vector<std::string>& lines, const std::string& raw) {
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (startsWithRowPrefix(lines[i]))
      return Error::make(ErrorCode::MalformedAnchor,
                         "content line " + std::to_string(i + 1) +
                             " starts with a read prefix (LINE:LLL:BBB\xE2\x86\x92); content is "
                             "the new text only")
          .withHint("remove the pasted LINE:LLL:BBB\xE2\x86\x92 prefixes from content, then retry");
  if (const auto bad = firstNonTextByte(raw))
    return Error::make(ErrorCode::NotText,
                       "content has a NUL byte or invalid UTF-8 at byte " + std::to_string(*bad));
  return Status::success();
}

Result<ParsedEdit> parseEdit(const AnchoredEdit& edit, std::size_t index) {
  ParsedEdit parsed;
  parsed.index = index;
  parsed.op = edit.op;
  if (edit.op == EditOp::Write) {
    if (auto status = checkContent(splitContentLines(edit.content), edit.content); !status.ok())
      return std::move(status).error();
    return parsed;
  }
  const bool insert = edit.op == EditOp::InsertAfter || edit.op == EditOp::InsertBefore;
  if (const auto keyword = positionKeyword(edit.anchor)) {
    if (!insert)
      return Error::make(ErrorCode::MalformedAnchor,
                         std::string(editOpName(edit.op)) +
                             " needs a line anchor such as 22:c3d:rst, not \"" + edit.anchor +
                             "\"");
    parsed.position = *keyword;
  } else {
    auto anchor = parseAnchor(edit.anchor);
    if (!anchor) return std::move(anchor).error();
    parsed.anchor = *anchor;
  }
  if (edit.end) {
    if (insert)
      return Error::make(ErrorCode::MalformedAnchor,
                         std::string(editOpName(edit.op)) + " takes no end anchor");
    auto end = parseAnchor(*edit.end);
    if (!end) return std::move(end).error();
    if (end->line < parsed.anchor->line)
      return Error::make(ErrorCode::MalformedAnchor,
                         "end anchor line " + std::to_string(end->line) +
                             " is before anchor line " + std::to_string(parsed.anchor->line));
    parsed.end = *end;
  }
  if (edit.op == EditOp::Delete) return parsed;
  parsed.lines = splitContentLines(edit.content);
  if (insert && parsed.lines.empty()) parsed.lines.push_back(""); // empty content: one blank line
  if (auto status = checkContent(parsed.lines, edit.content); !status.ok())
    return std::move(status).error();
  return parsed;
}

int errorRank(ErrorCode code) {
  switch (code) {
  case ErrorCode::StaleAnchor:
    return 0;
  case ErrorCode::StaleVersion:
    return 1;
  case ErrorCode::AmbiguousAnchor:
    return 2;
  case ErrorCode::AnchorUnknown:
    return 3;
  case ErrorCode::OutOfRange:
    return 4;
  default:
    return 5;
  }
}

// The span [first, last] of a range op must be untouched since the agent saw it.
Status checkSpan(const ResolvedAnchor& start, const ResolvedAnchor& end, std::uint32_t first,
                 std::uint32_t last, const ResolveContext& context) {
  if (first == last) return Status::success();
  const auto& state = context.state;
  const std::uint32_t length = last - first + 1;
  const ResolvedAnchor* exact = nullptr;
  for (const ResolvedAnchor* candidate : {&start, &end})
    if (candidate->exact &&
        (exact == nullptr || candidate->record->version < exact->record->version))
      exact = candidate;
  if (exact != nullptr) {
    const std::int64_t version = exact->record->version;
    if (version == state.version) return Status::success();
    const std::uint32_t then_first =
        exact == &start ? start.anchor.line : end.anchor.line - (length - 1);
    if (!state.log->rangeTouched(version, then_first - 1, then_first + length - 2).value_or(true))
      return Status::success();
    return anchorError(ErrorCode::StaleAnchor,
                       "lines inside " + linesLabel(start.anchor.line, end.anchor.line) +
                           " changed since you read them at version " + std::to_string(version),
                       context, first, exact->tier);
  }
  if (start.record != nullptr && end.record != nullptr) {
    // No history, but both ends were issued: every line between must be as one of the two reads
    // that issued them showed it (same line, same digests).
    const auto anchors = context.current.anchors(start.record->tier, first, last);
    for (const auto& anchor : anchors)
      if (!start.record->issuedAnchor(anchor) && !end.record->issuedAnchor(anchor))
        return anchorError(ErrorCode::StaleAnchor,
                           "line " + std::to_string(anchor.line) + " inside " +
                               linesLabel(first, last) + " changed since you read it",
                           context, anchor.line, start.record->tier);
  }
  return Status::success();
}

// Records the anchors shown in an error as issued at the current version.
void recordErrorAnchors(const Error& error, Observation* observation, const TextState& state,
                        const AnchorComputer& current) {
  if (observation == nullptr || error.data.fresh_anchors.empty()) return;
  std::vector<Anchor> by_tier[3];
  for (const auto& row : error.data.fresh_anchors) {
    auto anchor = parseAnchor(row.anchor);
    if (!anchor) continue;
    Tier tier = Tier::Line;
    if (anchor->context_digest)
      tier = current.anchorAt(Tier::Block, anchor->line) == *anchor ? Tier::Block : Tier::Chain;
    by_tier[static_cast<int>(tier)].push_back(*anchor);
  }
  for (int tier = 0; tier < 3; ++tier) {
    auto& anchors = by_tier[tier];
    if (anchors.empty()) continue;
    std::sort(anchors.begin(), anchors.end(),
              [](const Anchor& a, const Anchor& b) { return a.line < b.line; });
    observation->recordAnchors(state.version, static_cast<Tier>(tier), current.lineCount(),
                               static_cast<std::uint32_t>(state.text.lineCount()), anchors);
  }
}

Error batchError(Error error, std::size_t index, std::size_t count) {
  if (count > 1) {
    error.inEdit(index, count);
    error.data.notes.push_back("none of the " + std::to_string(count) +
                               " edits were applied; retry all of them with fresh anchors");
  }
  return error;
}

// Lines of `after` that differ from `before`: the span between common prefix and suffix.
LineSpan changedSpanOfWrite(const Rope& before, const Rope& after) {
  const std::string a = before.toString();
  const std::string b = after.toString();
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
    ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  const auto count = readLineCount(after);
  const auto first =
      static_cast<std::uint32_t>(std::min<std::size_t>(after.lineOfByte(prefix) + 1, count));
  const auto last = static_cast<std::uint32_t>(
      std::min<std::size_t>(after.lineOfByte(b.size() - suffix) + 1, count));
  return LineSpan{first, std::max(first, last)};
}

void fillFresh(VerifiedEdit& result, const std::vector<LineSpan>& spans,
               std::uint32_t context_lines) {
  AnchorComputer after(result.after, 0);
  const std::uint32_t count = after.lineCount();
  std::vector<LineSpan> windows;
  for (const auto& span : spans) {
    const std::int64_t first = std::max<std::int64_t>(1, std::int64_t(span.first) - context_lines);
    const std::int64_t last =
        std::min<std::int64_t>(count, std::int64_t(span.last) + context_lines);
    if (first > last) continue;
    windows.push_back(LineSpan{std::uint32_t(first), std::uint32_t(last)});
  }
  std::sort(windows.begin(), windows.end(),
            [](const LineSpan& a, const LineSpan& b) { return a.first < b.first; });
  std::vector<LineSpan> merged;
  for (const auto& window : windows) {
    if (!merged.empty() && window.first <= merged.back().last + 1)
      merged.back().last = std::max(merged.back().last, window.last);
    else
      merged.push_back(window);
  }
  for (const auto& window : merged) {
    auto texts = readLineTexts(result.after, window.first, window.last);
    for (const auto& anchor : after.anchors(result.tier, window.first, window.last)) {
      result.fresh_anchors.push_back(anchor);
      result.fresh_rows.push_back(AnchoredRow{anchor.line, formatAnchor(anchor),
                                              std::move(texts[anchor.line - window.first])});
    }
  }
  result.line_count_after = count;
  result.lsp_line_count_after = static_cast<std::uint32_t>(result.after.lineCount());
}

std::string convertLineEndings(std::string_view content, const std::string& eol) {
  std::string out;
  out.reserve(content.size());
  for (std::size_t i = 0; i < content.size(); ++i) {
    const char c = content[i];
    if (c == '\r' || c == '\n') {
      out += eol;
      if (c == '\r' && i + 1 < content.size() && content[i + 1] == '\n') ++i;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<VerifiedEdit> verifyWrite(const TextState& state, const Observation* observation,
                                 const AnchoredEdit& edit, Tier tier,
                                 const VerifyOptions& options) {
  VerifiedEdit result;
  result.tier = tier;
  result.plan.base_version = state.version;
  if (!state.exists) {
    result.plan.edits.push_back(ByteEdit{0, 0, edit.content});
  } else {
    const ReadRecord* latest = observation->latest();
    if (latest->version != state.version) {
      const bool untouched =
          state.log != nullptr && state.log->covers(latest->version) &&
          !state.log->rangeTouched(latest->version, 0, latest->lsp_line_count - 1).value_or(true);
      if (!untouched)
        return Error::make(ErrorCode::StaleVersion,
                           "the file changed since your last read (version " +
                               std::to_string(latest->version) + ", now " +
                               std::to_string(state.version) +
                               "); a whole-file write would overwrite those changes");
    }
    const std::size_t bom = bomBytes(state.text);
    std::string content = convertLineEndings(edit.content, lineEndingNear(state.text, 1));
    if (bom > 0 && content.starts_with(kUtf8Bom)) content.erase(0, kUtf8Bom.size());
    if (state.text.slice(bom, state.text.byteSize()) == content)
      return Error::make(ErrorCode::NoChange,
                         "the write changes nothing: the content equals the file");
    result.plan.edits.push_back(ByteEdit{bom, state.text.byteSize(), std::move(content)});
  }
  result.after = applyPlan(state.text, result.plan);
  const LineSpan changed = changedSpanOfWrite(state.text, result.after);
  result.changed_lines.push_back(changed);
  fillFresh(result, {changed}, options.context_lines);
  return result;
}

// 0. The shape of the batch: some edits, a write alone, an existing file, a session that read it.
Status checkBatch(const TextState& state, const Observation* observation,
                  const std::vector<AnchoredEdit>& edits) {
  const std::size_t count = edits.size();
  if (count == 0)
    return Error::make(ErrorCode::NoChange, "no edits given").withHint("give at least one edit");
  for (std::size_t i = 0; i < count; ++i)
    if (edits[i].op == EditOp::Write && count > 1)
      return batchError(Error::make(ErrorCode::OverlappingEdits,
                                    "a write replaces the whole file; it must be the only edit"),
                        i, count);
  const bool lone_write = count == 1 && edits[0].op == EditOp::Write;
  if (!state.exists && !lone_write)
    return Error::make(ErrorCode::FileNotFound,
                       "the file does not exist; create it with a single write");
  if (state.exists && (observation == nullptr || !observation->observed()))
    return Error::make(ErrorCode::NotObserved,
                       "this session has not read the file; read it, then retry the edit");
  return Status::success();
}

// 1. Input, in request order; the first malformed edit refuses the batch.
Result<std::vector<ParsedEdit>> parseEdits(const std::vector<AnchoredEdit>& edits) {
  std::vector<ParsedEdit> parsed;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    auto edit = parseEdit(edits[i], i);
    if (!edit) return batchError(std::move(edit).error(), i, edits.size());
    parsed.push_back(std::move(*edit));
  }
  return parsed;
}

// Where the edit sits in the current text (the line range it replaces, or the gap it inserts
// into), and the anchors that moved since the read.
Result<ResolvedEdit> resolveEdit(const ParsedEdit& edit, const ResolveContext& context,
                                 bool empty_text) {
  ResolvedEdit out{edit, LineOp{}, editLabel(edit), {}};
  out.op.request_index = edit.index;
  out.op.lines = edit.lines;
  if (edit.position != Position::AtAnchor) {
    out.op.insert = true;
    out.op.first = out.op.last =
        edit.position == Position::Top || empty_text ? 0 : context.current.lineCount();
    return out;
  }
  auto start = resolveAnchor(*edit.anchor, context);
  if (!start) return std::move(start).error();
  auto note_rebase = [&](const ResolvedAnchor& anchor) {
    if (anchor.exact && anchor.line != anchor.anchor.line)
      out.rebases.push_back(Rebase{anchor.anchor.line, anchor.line});
  };
  note_rebase(*start);
  if (edit.op == EditOp::InsertAfter || edit.op == EditOp::InsertBefore) {
    out.op.insert = true;
    out.op.first = out.op.last = edit.op == EditOp::InsertAfter ? start->line : start->line - 1;
    if (empty_text) out.op.first = out.op.last = 0;
    return out;
  }
  ResolvedAnchor end_anchor = *start;
  if (edit.end && !(*edit.end == *edit.anchor)) {
    auto end = resolveAnchor(*edit.end, context);
    if (!end) return std::move(end).error();
    end_anchor = *end;
    note_rebase(end_anchor);
  }
  if (end_anchor.line < start->line)
    return Error::make(ErrorCode::MalformedAnchor,
                       "end anchor resolves to line " + std::to_string(end_anchor.line) +
                           ", before the start at line " + std::to_string(start->line));
  if (auto status = checkSpan(*start, end_anchor, start->line, end_anchor.line, context);
      !status.ok())
    return std::move(status).error();
  out.op.first = start->line;
  out.op.last = end_anchor.line;
  return out;
}

// The refusal for a batch whose anchors failed: the highest-ranked failure (staleness first,
// then request order), with the others listed in its notes.
Error rankedFailure(const std::vector<std::pair<std::size_t, Error>>& failures, std::size_t count) {
  auto best = std::min_element(failures.begin(), failures.end(), [](const auto& a, const auto& b) {
    return std::pair(errorRank(a.second.code), a.first) <
           std::pair(errorRank(b.second.code), b.first);
  });
  Error error = batchError(best->second, best->first, count);
  for (const auto& [index, other] : failures)
    if (index != best->first)
      error.data.notes.push_back("edit " + std::to_string(index + 1) + "/" + std::to_string(count) +
                                 " also failed: " + std::string(errorCodeName(other.code)) + ": " +
                                 other.message);
  return error;
}

// 2. Anchors, all edits: every failure is collected so the refusal can name the worst one.
Result<std::vector<ResolvedEdit>> resolveEdits(const std::vector<ParsedEdit>& parsed,
                                               const ResolveContext& context,
                                               Observation* observation) {
  const bool empty_text = isEmptyText(context.state.text);
  std::vector<ResolvedEdit> resolved;
  std::vector<std::pair<std::size_t, Error>> failures;
  for (const auto& edit : parsed) {
    auto out = resolveEdit(edit, context, empty_text);
    if (out)
      resolved.push_back(std::move(*out));
    else
      failures.emplace_back(edit.index, std::move(out).error());
  }
  if (failures.empty()) return resolved;
  Error error = rankedFailure(failures, parsed.size());
  recordErrorAnchors(error, observation, context.state, context.current);
  return error;
}

// Whether `a` and `b` (a before b in document order when both replace) touch the same lines.
bool conflicts(const LineOp& a, const LineOp& b, bool a_before_b) {
  if (!a.insert && !b.insert) return a_before_b && a.first <= b.last && b.first <= a.last;
  if (a.insert && !b.insert) // insertion inside or at the start of b's span
    return b.first <= a.first + 1 && a.first + 1 <= b.last;
  return false;
}

Error overlapError(const ResolvedEdit& x, const ResolvedEdit& y, std::size_t count) {
  const auto& first = x.op.request_index < y.op.request_index ? x : y;
  const auto& second = &first == &x ? y : x;
  auto name = [&](const ResolvedEdit& edit) {
    return "edit " + std::to_string(edit.op.request_index + 1) + "/" + std::to_string(count) +
           " (" + edit.label + ")";
  };
  Error error =
      Error::make(ErrorCode::OverlappingEdits, "overlapping edits: " + name(first) + " and " +
                                                   name(second) + " touch the same lines");
  error.data.edit_index = second.op.request_index;
  error.data.edit_count = count;
  error.data.notes.push_back("none of the " + std::to_string(count) + " edits were applied");
  return error;
}

// 3. Overlaps, on edits sorted in document order.
Status checkOverlaps(const std::vector<ResolvedEdit>& sorted, std::size_t count) {
  for (std::size_t i = 0; i < sorted.size(); ++i)
    for (std::size_t j = 0; j < sorted.size(); ++j)
      if (i != j && conflicts(sorted[i].op, sorted[j].op, i < j))
        return overlapError(sorted[i], sorted[j], count);
  return Status::success();
}

// Warns about an edit that replaces many lines: a sign the agent rewrote more than it meant to.
void warnLargeReplace(EditPlan& plan, const ResolvedEdit& edit, const std::string& name) {
  if (edit.op.insert) return;
  const std::uint32_t span = edit.op.last - edit.op.first + 1;
  if (span > 20)
    plan.warnings.push_back("caution: " + name + " replaces " + std::to_string(span) + " lines (" +
                            edit.label + ")");
  else if (span > 5)
    plan.warnings.push_back("note: " + name + " replaces " + std::to_string(span) + " lines (" +
                            edit.label + ")");
}

void addRebases(EditPlan& plan, const std::vector<Rebase>& rebases) {
  for (const auto& rebase : rebases)
    if (std::find(plan.rebased.begin(), plan.rebased.end(), rebase) == plan.rebased.end())
      plan.rebased.push_back(rebase);
}

// 4. Byte edits, from edits sorted in document order; returns the changed spans in the new text
// (not yet clamped). Edits that change nothing are dropped with a warning.
std::vector<LineSpan> planByteEdits(VerifiedEdit& result, const Rope& text,
                                    const std::vector<ResolvedEdit>& sorted, std::size_t count) {
  std::vector<LineOp> ops;
  for (const auto& edit : sorted)
    ops.push_back(edit.op);
  const auto spans = newLineSpans(ops);
  std::vector<LineSpan> changed;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const auto& edit = sorted[i];
    ByteEdit byte_edit = lineOpToByteEdit(text, edit.op);
    const std::string name =
        "edit " + std::to_string(edit.op.request_index + 1) + "/" + std::to_string(count);
    if (text.slice(byte_edit.begin, byte_edit.end) == byte_edit.text) {
      result.plan.warnings.push_back(name + " (" + edit.label + ") changes nothing");
      continue;
    }
    warnLargeReplace(result.plan, edit, name);
    result.plan.edits.push_back(std::move(byte_edit));
    addRebases(result.plan, edit.rebases);
    const NewSpan span = spans[i];
    changed.push_back(span.last >= span.first ? LineSpan{span.first, span.last}
                                              : LineSpan{span.first, span.first});
  }
  return changed;
}

// The verified edit of anchored edits sorted in document order, with fresh anchors around each
// change; NO_CHANGE when none of them changes anything.
Result<VerifiedEdit> buildVerifiedEdit(const TextState& state,
                                       const std::vector<ResolvedEdit>& sorted, Tier tier,
                                       std::size_t count, const VerifyOptions& options) {
  VerifiedEdit result;
  result.tier = tier;
  result.plan.base_version = state.version;
  std::vector<LineSpan> changed = planByteEdits(result, state.text, sorted, count);
  if (result.plan.edits.empty())
    return Error::make(ErrorCode::NoChange,
                       count == 1
                           ? "the edit changes nothing: the new text equals the current text"
                           : "none of the " + std::to_string(count) + " edits changes anything");
  result.after = applyPlan(state.text, result.plan);
  const std::uint32_t after_count = readLineCount(result.after);
  for (auto& span : changed) {
    span.first = std::clamp<std::uint32_t>(span.first, 1, after_count);
    span.last = std::clamp<std::uint32_t>(span.last, span.first, after_count);
  }
  result.changed_lines = changed;
  fillFresh(result, changed, options.context_lines);
  return result;
}

} // namespace

void VerifiedEdit::recordFreshAnchors(Observation& observation, std::int64_t version) const {
  observation.recordAnchors(version, tier, line_count_after, lsp_line_count_after, fresh_anchors);
}

// NOT_OBSERVED for anchors the session holds from elsewhere — most often a sidecar that
// restarted (its reads died with it): the lines those anchors name, as the text is now, with
// fresh anchors recorded as issued, so the agent checks them and retries in one step. The rows
// are the current text at the stated line numbers, never a guess at where the lines went.
void offerNamedLines(Error& error, const TextState& state, Observation& observation,
                     const std::vector<AnchoredEdit>& edits, const VerifyOptions& options) {
  auto parsed = parseEdits(edits);
  if (!parsed || state.text.lineCount() == 0) return;
  AnchorComputer current(state.text, state.version, state.log, options.cache);
  const std::uint32_t last_line = current.lineCount();
  std::vector<std::uint32_t> lines;
  for (const ParsedEdit& edit : *parsed) {
    if (edit.position == Position::Top) lines.push_back(1);
    if (edit.position == Position::End) lines.push_back(last_line);
    if (edit.anchor) lines.push_back(edit.anchor->line);
    if (edit.end) lines.push_back(edit.end->line);
  }
  if (lines.empty()) return;
  std::sort(lines.begin(), lines.end());
  const Tier tier = observation.tier(options.tier);
  const std::int64_t context = options.context_lines;
  constexpr std::size_t kMaxRows = 64; // a large batch: the first windows; a read shows the rest
  std::int64_t first = std::int64_t(lines.front()) - context, last = lines.front() + context;
  auto flush = [&] {
    if (error.data.fresh_anchors.size() >= kMaxRows || first > std::int64_t(last_line)) return;
    for (AnchoredRow& row : freshRows(current, tier, first, last))
      if (error.data.fresh_anchors.size() < kMaxRows)
        error.data.fresh_anchors.push_back(std::move(row));
  };
  for (std::uint32_t line : lines) {
    if (std::int64_t(line) - context <= last + 1) {
      last = std::max<std::int64_t>(last, std::int64_t(line) + context);
      continue;
    }
    flush();
    first = std::int64_t(line) - context;
    last = std::int64_t(line) + context;
  }
  flush();
  if (error.data.fresh_anchors.empty()) return;
  error.message = "this session has not read the file here (a restarted sidecar forgets every "
                  "read, so anchors issued before a restart are unknown); the lines your anchors "
                  "name are shown as they are now, with fresh anchors";
  error.hint = "check that these are the lines you meant, then retry with their fresh anchors "
               "(or read the file)";
  recordErrorAnchors(error, &observation, state, current);
}

Result<VerifiedEdit> verifyAnchoredEdits(const TextState& state, Observation* observation,
                                         const std::vector<AnchoredEdit>& edits,
                                         const VerifyOptions& options) {
  if (Status status = checkBatch(state, observation, edits); !status.ok()) {
    Error error = std::move(status).error();
    if (error.code == ErrorCode::NotObserved && observation != nullptr)
      offerNamedLines(error, state, *observation, edits, options);
    return error;
  }
  const std::size_t count = edits.size();
  const Tier tier = observation ? observation->tier(options.tier) : options.tier;

  auto parsed = parseEdits(edits);
  if (!parsed) return std::move(parsed).error();
  if (count == 1 && edits[0].op == EditOp::Write)
    return verifyWrite(state, observation, edits[0], tier, options);

  AnchorComputer current(state.text, state.version, state.log, options.cache);
  const ResolveContext context{state, observation,           current,
                               tier,  options.search_radius, options.context_lines};
  auto resolved = resolveEdits(*parsed, context, observation);
  if (!resolved) return std::move(resolved).error();

  std::sort(resolved->begin(), resolved->end(),
            [](const ResolvedEdit& a, const ResolvedEdit& b) { return lineOpOrder(a.op, b.op); });
  if (Status status = checkOverlaps(*resolved, count); !status.ok())
    return std::move(status).error();
  return buildVerifiedEdit(state, *resolved, tier, count, options);
}

} // namespace hashline
