// planForm: every edit form to one PlannedEdit; see edit_planner.h.
#include "lsp/service/edit_planner.h"

#include "engine/anchors/anchor_computer.h"
#include "engine/anchors/read_lines.h"
#include "engine/forms/draft.h"
#include "engine/forms/ed_script.h"
#include "engine/forms/read_guard.h"
#include "engine/text/text_compare.h"
#include "engine/verify/anchor_resolver.h"
#include "engine/verify/verifier.h"

#include <algorithm>

namespace hashline::lsp {

namespace {

Tier sessionTier(const PlanContext& context) {
  return context.observation ? context.observation->tier(context.default_tier)
                             : context.default_tier;
}

// NOT_OBSERVED, then STALE_VERSION (docs/forms.md "Order of checks"). Forms addressed by line
// numbers at a stated version (line range, ed) are not version-guarded: their lines are rebased
// through the change log from that version, and refused only when those lines changed.
Status textFormGuard(const PlanContext& context, bool version_guarded) {
  if (!context.state.exists) {
    Error error = Error::make(ErrorCode::FileNotFound,
                              (context.path.empty() ? std::string("the file") : context.path) +
                                  " does not exist");
    error.withHint("create it with the edit method's `write` op, or check the path");
    if (!context.path.empty()) error.data.path = context.path;
    return error;
  }
  forms::ReadGuard guard;
  guard.observed = context.observation && context.observation->observed();
  guard.path = context.path;
  guard.current_version = context.state.version;
  if (guard.observed && !context.retry && version_guarded) {
    guard.read_version = context.observation->latest()->version;
    if (*guard.read_version != context.state.version && context.document) {
      std::optional<Rope> read_text = context.document->snapshotAt(*guard.read_version);
      guard.same_text_as_read = read_text && sameText(*read_text, context.state.text);
    }
  }
  return forms::checkReadGuard(guard);
}

// Ed addresses: anchors through the anchor resolver, numbers rebased from the stated version.
forms::EdAddressResolver edResolver(const PlanContext& context, std::int64_t at_version,
                                    const AnchorComputer& computer) {
  forms::LineHistory history{context.state.log, context.state.version};
  forms::EdAddressResolver numbers = forms::makeLineNumberResolver(history, at_version);
  return [&context, &computer, numbers, history, at_version](
             const forms::EdRange& range, const forms::LineTable& table) -> Result<forms::EdLines> {
    bool has_anchor = range.first.kind == forms::EdAddress::Anchor ||
                      (range.last && range.last->kind == forms::EdAddress::Anchor);
    if (!has_anchor) return numbers(range, table);
    ResolveContext resolve{
        context.state,        context.observation, computer, sessionTier(context), 15,
        context.context_lines};
    auto one = [&](const forms::EdAddress& address) -> Result<std::uint32_t> {
      switch (address.kind) {
      case forms::EdAddress::Last:
        return std::uint32_t(table.lineCount());
      case forms::EdAddress::Anchor: {
        Result<Anchor> anchor = parseAnchor(address.anchor);
        if (!anchor) return std::move(anchor).error();
        Result<ResolvedAnchor> resolved = resolveAnchor(*anchor, resolve);
        if (!resolved) return std::move(resolved).error();
        return resolved->line;
      }
      case forms::EdAddress::Line: {
        if (address.line == 0) return 0u;
        Result<forms::RebasedLines> rebased =
            forms::rebaseLines(history, table, at_version, std::int64_t(address.line) - 1,
                               std::int64_t(address.line) - 1);
        if (!rebased) return std::move(rebased).error();
        return rebased->first + 1;
      }
      }
      return 0u;
    };
    Result<std::uint32_t> first = one(range.first);
    if (!first) return std::move(first).error();
    Result<std::uint32_t> last = range.last ? one(*range.last) : first;
    if (!last) return std::move(last).error();
    return forms::EdLines{*first, *last, std::nullopt};
  };
}

Result<EditPlan> planTextForm(const FormRequest& request, const PlanContext& context) {
  const Rope& base = context.state.text;
  const std::int64_t version = context.state.version;
  switch (request.kind) {
  case FormKind::Replace:
    return forms::planReplace(base, version, request.replacements);
  case FormKind::HeadTail:
    return forms::planHeadTail(base, version, request.head_tails);
  case FormKind::Range:
    return forms::planLineRange(base, forms::LineHistory{context.state.log, version},
                                request.ranges);
  case FormKind::Draft:
    return forms::planDraft(base, version, request.text);
  case FormKind::Ed: {
    Result<forms::EdScript> script = forms::parseEdScript(request.text);
    if (!script) return std::move(script).error();
    AnchorComputer computer(base, version, context.state.log, context.cache);
    return forms::planEdScript(base, version, *script,
                               edResolver(context, request.version.value_or(version), computer));
  }
  case FormKind::Anchors:
    break;
  }
  return Error::make(ErrorCode::PatchInvalid, "not a text form");
}

} // namespace

PlannedEdit completePlan(EditPlan plan, const Rope& before, Tier tier) {
  PlannedEdit out;
  out.before = before;
  out.after = applyPlan(before, plan);
  out.tier = tier;
  const std::uint32_t after_lines = readLineCount(out.after);
  std::int64_t delta = 0;
  std::size_t min_begin = before.byteSize(), max_end = 0;
  for (const ByteEdit& edit : plan.edits) {
    min_begin = std::min(min_begin, edit.begin);
    max_end = std::max(max_end, std::max(edit.end, edit.begin + 1));
    std::size_t new_begin = std::size_t(std::int64_t(edit.begin) + delta);
    std::size_t new_end = new_begin + edit.text.size();
    delta += std::int64_t(edit.text.size()) - std::int64_t(edit.end - edit.begin);
    std::uint32_t first =
        std::uint32_t(out.after.lineOfByte(std::min(new_begin, out.after.byteSize()))) + 1;
    std::uint32_t last =
        edit.text.empty()
            ? first
            : std::uint32_t(out.after.lineOfByte(std::min(new_end - 1, out.after.byteSize()))) + 1;
    first = std::min(first, after_lines);
    last = std::clamp(last, first, after_lines);
    if (!out.changed_lines.empty() && first <= out.changed_lines.back().last + 1)
      out.changed_lines.back().last = std::max(out.changed_lines.back().last, last);
    else
      out.changed_lines.push_back(LineSpan{first, last});
  }
  if (!plan.edits.empty()) {
    out.first_touched_line =
        std::uint32_t(before.lineOfByte(std::min(min_begin, before.byteSize())));
    out.last_touched_line =
        std::uint32_t(before.lineOfByte(std::min(max_end - 1, before.byteSize())));
  }
  out.plan = std::move(plan);
  return out;
}

Result<PlannedEdit> planForm(const FormRequest& request, const PlanContext& context) {
  if (request.kind == FormKind::Anchors) {
    VerifyOptions options;
    options.tier = context.default_tier;
    options.context_lines = context.context_lines;
    options.cache = context.cache;
    Result<VerifiedEdit> verified =
        verifyAnchoredEdits(context.state, context.observation, request.anchored, options);
    if (!verified) {
      Error error = std::move(verified).error();
      if (!error.data.path && !context.path.empty()) error.data.path = context.path;
      return error;
    }
    PlannedEdit planned =
        completePlan(std::move(verified->plan), context.state.text, verified->tier);
    planned.after = std::move(verified->after);
    return planned;
  }
  const bool version_guarded = request.kind != FormKind::Range && request.kind != FormKind::Ed;
  if (Status guard = textFormGuard(context, version_guarded); !guard.ok())
    return std::move(guard).error();
  Result<EditPlan> plan = planTextForm(request, context);
  if (!plan) {
    Error error = std::move(plan).error();
    if (!error.data.path && !context.path.empty()) error.data.path = context.path;
    return error;
  }
  return completePlan(std::move(*plan), context.state.text, sessionTier(context));
}

} // namespace hashline::lsp
