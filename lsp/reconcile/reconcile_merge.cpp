// The merge half of the reconciler: a foreign write merged into the live buffer as one applyEdit
// (re-merged on a version race), journaled and announced; the editor's own reload journaled as
// the merge; conflicts listed and shown; see reconciler.h.
#include "engine/diff/minimal_edits.h"
#include "engine/text/text_compare.h"
#include "lsp/reconcile/tracked_document.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/edit_planner.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/log.h"

namespace hashline::lsp {

using nlohmann::json;

void Reconciler::merge(Tracked& tracked, SharedFileBytes disk) {
  OpenDocument* open = server_.documents().find(tracked.key);
  auto state = std::make_shared<PendingMerge>();
  state->base = tracked.base ? tracked.base : std::make_shared<const FileBytes>();
  state->theirs = std::move(disk);
  state->before = open->document.text();
  state->before_version = open->document.version();
  const ReconcileClock::time_point merge_start = ReconcileClock::now();
  state->last = merge::mergeThreeWay(*state->base, open->document.text(), *state->theirs);
  log::debug("reconcile: merged ", tracked.path, " in ", microsSince(merge_start), " µs");
  // The buffer already holds the disk's text, or every change of the disk is in it already (a
  // rewrite that changed nothing, or the same change on both sides): nothing to apply.
  if (!state->last.differs || (state->last.edits.empty() && state->last.conflicts.empty())) {
    tracked.base = state->theirs;
    return;
  }
  if (state->last.edits.empty()) { // every disk hunk overlaps the user's typing
    json message = {{"kind", "conflict"}, {"hunks", 0}};
    noteConflicts(tracked, state->last, open->document.version(), message);
    message["bufferMatchesDisk"] = false;
    tracked.base = state->theirs;
    announce(tracked, std::move(message));
    return;
  }
  tracked.merging = true;
  BufferPlanner planner = [state](OpenDocument& document, bool) -> Result<PlannedEdit> {
    if (document.document.version() != state->before_version) // the user typed: merge again
      state->last = merge::mergeThreeWay(*state->base, document.document.text(), *state->theirs);
    if (state->last.edits.empty())
      return Error::make(ErrorCode::NoChange, "the buffer already holds the disk's change");
    EditPlan plan;
    plan.base_version = document.document.version();
    plan.edits = state->last.edits;
    return completePlan(std::move(plan), document.document.text(), Tier::Block);
  };
  service_.applyToBuffer(
      tracked.key, "reconcile", diskCaller(tracked.key), std::move(planner),
      [this, key = tracked.key, state](Result<BufferApplied> outcome, std::uint64_t op) {
        onMergeDone(key, *state, std::move(outcome), op);
      });
}

void Reconciler::onMergeDone(const std::string& key, const PendingMerge& state,
                             Result<BufferApplied> outcome, std::uint64_t op) {
  Tracked* tracked = find(key);
  if (!tracked) return;
  if (!outcome && outcome.error().code != ErrorCode::NoChange) {
    log::warn("reconcile: merging the disk change of ", tracked->path,
              " failed: ", outcome.error().message);
    if (++tracked->failures <= 3) {
      tracked->merging = false;
      return arm(*tracked, options_.open_writer_quiet * 2);
    }
    server_.notify(
        "window/showMessage",
        {{"type", 1},
         {"message", "hashline: could not merge the disk change of " + fileName(tracked->path) +
                         " into the buffer (" + outcome.error().message + ")."}});
  }
  tracked->failures = 0;
  tracked->base = state.theirs;
  if (outcome)
    announceMerge(*tracked, state, *outcome, op);
  else // NO_CHANGE: the buffer reached the disk text by itself
    journalRacingReload(*tracked, state);
  finishMerge(key);
}

void Reconciler::announceMerge(Tracked& tracked, const PendingMerge& state,
                               const BufferApplied& applied, std::uint64_t op) {
  tracked.merged_version = applied.version_after;
  json message = {{"kind", state.last.conflicts.empty() ? "merged" : "conflict"},
                  {"version", applied.version_after},
                  {"hunks", state.last.taken.size()}};
  if (op) message["op"] = op;
  // Versions before the merge are not the editor's own saves any more.
  while (tracked.recent.size() > 1 && tracked.recent.front().version < applied.version_after)
    tracked.recent.pop_front();
  noteConflicts(tracked, state.last, applied.version_after, message);
  const OpenDocument* open = server_.documents().find(tracked.key);
  message["bufferMatchesDisk"] = open && sameText(open->document.text(), *state.theirs);
  log::info("reconcile: merged a disk write into ", tracked.path, " (", state.last.taken.size(),
            " hunks, ", state.last.conflicts.size(), " conflicts, op ", op, ")");
  announce(tracked, std::move(message));
}

void Reconciler::journalRacingReload(Tracked& tracked, const PendingMerge& state) {
  const OpenDocument* open = server_.documents().find(tracked.key);
  // VS Code reloads a clean buffer from disk on its own, racing our edit: journal that reload
  // as the merge, so it is reviewable and undoable like one.
  if (!open || !sameText(state.before, *state.base) ||
      !sameText(open->document.text(), *state.theirs))
    return;
  AppliedEdit record;
  record.method = "reconcile";
  record.caller = diskCaller(tracked.key);
  record.uri = open->uri;
  record.path = tracked.path;
  record.version_before = state.before_version;
  record.version_after = open->document.version();
  record.before = state.before;
  record.after = open->document.text();
  record.plan.base_version = state.before_version;
  record.plan.edits = minimalEdits(*state.base, *state.theirs);
  json message = {{"kind", "merged"},
                  {"version", open->document.version()},
                  {"hunks", state.last.taken.size()},
                  {"bufferMatchesDisk", true},
                  {"reloadedByEditor", true}};
  if (std::uint64_t op = service_.recordAppliedEdit(record)) message["op"] = op;
  announce(tracked, std::move(message));
}

CallerIdentity Reconciler::diskCaller(const std::string& key) const {
  if (auto found = attributions_.find(key);
      found != attributions_.end() && std::chrono::steady_clock::now() < found->second.until)
    return found->second.caller;
  CallerIdentity caller;
  caller.session = "disk";
  caller.agent = options_.agent;
  return caller;
}

void Reconciler::journalEditorReload(Tracked& tracked, std::size_t held) {
  const Tracked::Version& before = tracked.recent[held - 1];
  const Tracked::Version& after = tracked.recent[held];
  AppliedEdit record;
  record.method = "reconcile";
  record.caller = diskCaller(tracked.key);
  record.uri = tracked.uri;
  record.path = tracked.path;
  record.version_before = before.version;
  record.version_after = after.version;
  record.before = before.text;
  record.after = after.text;
  record.plan.base_version = before.version;
  record.plan.edits = minimalEdits(before.text.toString(), after.text.toString());
  json message = {{"kind", "merged"},
                  {"version", after.version},
                  {"hunks", record.plan.edits.size()},
                  {"reloadedByEditor", true}};
  if (std::uint64_t op = service_.recordAppliedEdit(record)) message["op"] = op;
  const OpenDocument* open = server_.documents().find(tracked.key);
  message["bufferMatchesDisk"] = open && sameText(open->document.text(), after.text);
  log::info("reconcile: the editor reloaded ", tracked.path, " from disk itself; journaled");
  announce(tracked, std::move(message));
}

void Reconciler::noteConflicts(const Tracked& tracked, const merge::MergeResult& result,
                               std::int64_t version, json& message) {
  json listed = json::array();
  for (const merge::Conflict& conflict : result.conflicts) {
    OpenConflict open;
    open.key = tracked.key;
    open.uri = tracked.uri;
    open.path = tracked.path;
    open.line = merge::mergedLine(result, conflict.ours.begin);
    open.ours = conflict.ours_text;
    open.theirs = conflict.theirs_text;
    open.version = version;
    const OpenConflict& stored = conflicts_.add(std::move(open));
    listed.push_back(conflictJSON(stored));
    server_.notify(
        "window/showMessage",
        {{"type", 2},
         {"message", "hashline: " + fileName(tracked.path) + " changed on disk at line " +
                         std::to_string(stored.line + 1) +
                         ", where you have unsaved changes; kept yours. Take the disk's side: "
                         "hashline resolve " +
                         stored.id + " --take theirs"}});
  }
  if (!listed.empty()) persistConflicts();
  message["conflicts"] = std::move(listed);
}

void Reconciler::finishMerge(const std::string& key) {
  Tracked* tracked = find(key);
  if (!tracked) return;
  tracked->merging = false;
  if (tracked->again) {
    tracked->again = false;
    arm(*tracked, options_.quiet);
  }
}

void Reconciler::announce(const Tracked& tracked, json message) {
  message["uri"] = tracked.uri;
  message["path"] = tracked.path;
  message["agent"] = options_.agent;
  if (!message.contains("conflicts")) message["conflicts"] = json::array();
  server_.notify("hashline/reconciled", std::move(message));
}

} // namespace hashline::lsp
