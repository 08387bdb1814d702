// Resolving one anchor against the current text; see anchor_resolver.h.
#include "engine/verify/anchor_resolver.h"

#include "engine/anchors/read_lines.h"

#include <algorithm>

namespace hashline {
namespace {

std::string spanText(std::uint32_t first, std::uint32_t last) {
  return first == last ? "line " + std::to_string(first)
                       : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

std::string joinLines(const std::vector<std::uint32_t>& lines) {
  std::string out;
  for (auto line : lines) {
    if (!out.empty()) out += ", ";
    out += std::to_string(line);
  }
  return out;
}

// History path: the anchor was issued at `record.version`, which is current or covered.
Result<ResolvedAnchor> resolveExact(const Anchor& anchor, const ReadRecord& record,
                                    const ResolveContext& context) {
  const auto& state = context.state;
  const std::string text = formatAnchor(anchor);
  ResolvedAnchor resolved{anchor, anchor.line, record.tier, &record, true};
  if (record.version != state.version) {
    const auto fate = state.log->mapLine(record.version, anchor.line - 1);
    const std::uint32_t now = fate ? std::min(fate->line + 1, context.current.lineCount()) : 1;
    if (!fate || fate->kind == LineFate::Changed)
      return anchorError(ErrorCode::StaleAnchor,
                         "anchor " + text + " is stale: line " + std::to_string(anchor.line) +
                             " was changed since you read it (version " +
                             std::to_string(record.version) + ", now " +
                             std::to_string(state.version) + ")",
                         context, now, record.tier);
    const auto [covered_first, covered_last] =
        coveredLines(record.tier, anchor.line, record.line_count);
    if (covered_first != covered_last &&
        state.log->rangeTouched(record.version, covered_first - 1, covered_last - 1).value_or(true))
      return anchorError(ErrorCode::StaleAnchor,
                         "anchor " + text + " is stale: " + spanText(covered_first, covered_last) +
                             " (its " + (record.tier == Tier::Block ? "block" : "chain") +
                             ") changed since you read them at version " +
                             std::to_string(record.version),
                         context, now, record.tier);
    resolved.line = fate->line + 1;
  }
  // Defensive re-check of the content digest: exact tracking says the line is unchanged.
  if (resolved.line > context.current.lineCount() ||
      context.current.anchorAt(Tier::Line, resolved.line).line_digest != anchor.line_digest)
    return anchorError(ErrorCode::StaleAnchor,
                       "anchor " + text + " is stale: line " + std::to_string(resolved.line) +
                           " no longer has the content you read",
                       context, std::min(resolved.line, context.current.lineCount()), record.tier);
  return resolved;
}

// Lines within the search radius whose digests match the anchor; full matches (line digest and,
// for block/chain, context digest at the candidate's own position) are preferred.
std::vector<std::uint32_t> findCandidates(const Anchor& anchor, Tier tier,
                                          const ResolveContext& context) {
  const std::uint32_t count = context.current.lineCount();
  const std::int64_t center = anchor.line;
  const std::uint32_t first =
      static_cast<std::uint32_t>(std::max<std::int64_t>(1, center - context.search_radius));
  const std::uint32_t last =
      static_cast<std::uint32_t>(std::min<std::int64_t>(count, center + context.search_radius));
  if (first > last) return {};
  const auto anchors = context.current.anchors(tier, first, last);
  std::vector<std::uint32_t> line_matches;
  std::vector<std::uint32_t> full_matches;
  for (const auto& candidate : anchors) {
    if (candidate.line_digest != anchor.line_digest) continue;
    line_matches.push_back(candidate.line);
    if (!anchor.context_digest || candidate.context_digest == anchor.context_digest)
      full_matches.push_back(candidate.line);
  }
  if (full_matches.size() == 1) return full_matches;
  return line_matches;
}

Result<ResolvedAnchor> resolveByDigest(const Anchor& anchor, Tier tier, const ReadRecord* record,
                                       const ResolveContext& context) {
  const std::string text = formatAnchor(anchor);
  const std::uint32_t count = context.current.lineCount();
  const bool missing_context = tier != Tier::Line && !anchor.context_digest;
  if (anchor.line <= count && !missing_context) {
    const Anchor now = context.current.anchorAt(tier, anchor.line);
    if (now.line_digest == anchor.line_digest &&
        (tier == Tier::Line || now.context_digest == anchor.context_digest))
      return ResolvedAnchor{anchor, anchor.line, tier, record, false};
  }
  if (missing_context && anchor.line <= count &&
      context.current.anchorAt(tier, anchor.line).line_digest == anchor.line_digest) {
    const std::string fresh = formatAnchor(context.current.anchorAt(tier, anchor.line));
    Error error = anchorError(ErrorCode::StaleAnchor,
                              "anchor " + text + " lacks the " + std::string(tierName(tier)) +
                                  " digest this session reads with; retry with " + fresh,
                              context, anchor.line, tier);
    error.data.suggestion = fresh;
    error.data.candidate_lines = {anchor.line};
    return error;
  }
  const auto candidates = findCandidates(anchor, tier, context);
  const std::uint32_t focus = std::min(anchor.line, count);
  if (candidates.size() == 1) {
    const std::uint32_t line = candidates.front();
    const std::string fresh = formatAnchor(context.current.anchorAt(tier, line));
    std::string message = line == anchor.line
                              ? "anchor " + text + " is stale: line " + std::to_string(line) +
                                    " is unchanged but its " +
                                    (tier == Tier::Chain ? "chain" : "block") +
                                    " changed; retry with " + fresh
                              : "anchor " + text + " is stale: the content moved to line " +
                                    std::to_string(line) + "; retry with " + fresh;
    Error error = anchorError(ErrorCode::StaleAnchor, std::move(message), context, line, tier);
    error.data.suggestion = fresh;
    error.data.candidate_lines = candidates;
    return error;
  }
  if (candidates.size() > 1) {
    Error error =
        anchorError(ErrorCode::AmbiguousAnchor,
                    "anchor " + text + " does not match line " + std::to_string(anchor.line) +
                        " and its content appears at lines " + joinLines(candidates) +
                        "; use the fresh anchor of the line you mean",
                    context, focus, tier);
    error.data.candidate_lines = candidates;
    for (auto line : candidates)
      if (line + context.context_lines < focus || line > focus + context.context_lines) {
        const auto rows = freshRows(context.current, tier, line, line);
        error.data.fresh_anchors.insert(error.data.fresh_anchors.end(), rows.begin(), rows.end());
      }
    return error;
  }
  if (anchor.line > count)
    return anchorError(ErrorCode::OutOfRange,
                       "anchor " + text + " is out of range: line " + std::to_string(anchor.line) +
                           " is past the end (the file has " + std::to_string(count) + " lines)",
                       context, count, tier);
  if (record != nullptr || missing_context)
    return anchorError(ErrorCode::StaleAnchor,
                       "anchor " + text + " is stale: line " + std::to_string(anchor.line) +
                           " changed since you read it and its content is not within " +
                           std::to_string(context.search_radius) + " lines",
                       context, focus, tier);
  Error error =
      anchorError(ErrorCode::AnchorUnknown,
                  "anchor " + text + " was never issued for this file and matches no line within " +
                      std::to_string(context.search_radius) + " lines of line " +
                      std::to_string(anchor.line) + " (miscopied?)",
                  context, focus, tier);
  return error;
}

} // namespace

bool hasHistory(const ReadRecord& record, const TextState& state) {
  return record.version == state.version ||
         (state.log != nullptr && state.log->covers(record.version));
}

std::vector<AnchoredRow> freshRows(const AnchorComputer& current, Tier tier, std::int64_t first,
                                   std::int64_t last) {
  const std::int64_t count = current.lineCount();
  first = std::max<std::int64_t>(first, 1);
  last = std::min<std::int64_t>(last, count);
  std::vector<AnchoredRow> rows;
  if (first > last) return rows;
  for (const auto& anchor :
       current.anchors(tier, static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(last)))
    rows.push_back(
        AnchoredRow{anchor.line, formatAnchor(anchor), readLineText(current.text(), anchor.line)});
  return rows;
}

Error anchorError(ErrorCode code, std::string message, const ResolveContext& context,
                  std::uint32_t focus_line, Tier tier) {
  Error error = Error::make(code, std::move(message));
  focus_line = std::clamp<std::uint32_t>(focus_line, 1, context.current.lineCount());
  error.data.current_text = readLineText(context.current.text(), focus_line);
  error.data.fresh_anchors =
      freshRows(context.current, tier, std::int64_t(focus_line) - context.context_lines,
                std::int64_t(focus_line) + context.context_lines);
  return error;
}

Result<ResolvedAnchor> resolveAnchor(const Anchor& anchor, const ResolveContext& context) {
  const ReadRecord* record = context.observation ? context.observation->issuerOf(anchor) : nullptr;
  if (record != nullptr && hasHistory(*record, context.state))
    return resolveExact(anchor, *record, context);
  Tier tier = record != nullptr ? record->tier : context.session_tier;
  if (record == nullptr && anchor.context_digest && tier == Tier::Line) tier = Tier::Block;
  return resolveByDigest(anchor, tier, record, context);
}

} // namespace hashline
