// Reconciler: watch, settle, classify, merge, apply, journal, announce; see reconciler.h.
#include "lsp/reconcile/reconciler.h"

#include "engine/diff/minimal_edits.h"
#include "lsp/protocol/error_json.h"
#include "lsp/reconcile/disk_read.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/edit_planner.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/log.h"
#include "lsp/support/uri.h"

#include <algorithm>
#include <cstdlib>
#include <sys/inotify.h>

namespace hashline::lsp {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

/// Recent buffer versions kept per document to recognise the editor's own saves.
constexpr std::size_t kRecentVersions = 64;

bool ropeEquals(const Rope& rope, std::string_view text) {
  if (rope.byteSize() != text.size()) return false;
  std::size_t at = 0;
  bool equal = true;
  rope.forEachChunk(0, rope.byteSize(), [&](std::string_view chunk) {
    if (equal && text.compare(at, chunk.size(), chunk) != 0) equal = false;
    at += chunk.size();
  });
  return equal;
}

milliseconds since(Clock::time_point then) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - then);
}

std::string directoryOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

std::string fileName(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

struct Reconciler::Tracked {
  explicit Tracked(boost::asio::io_context& io) : timer(io) {}
  std::string key, uri, path;
  /// The paths whose directory entries are watched: the document's, and the file it resolves to
  /// when that differs (a symlink: agents write the target).
  std::vector<std::string> watched;
  std::optional<std::string> base; // nullopt: no file on disk when opened
  struct Version {
    std::int64_t version = 0;
    Rope text;
  };
  std::deque<Version> recent; // the buffer's versions since the last base point
  Clock::time_point last_change{};
  std::optional<Clock::time_point> saved_at; // the last didSave
  /// A didSave belongs to this round of events (it may arrive just before the write's event).
  bool savedThisRound() const {
    return saved_at && *saved_at + std::chrono::milliseconds(250) > last_event;
  }
  bool waiting = false; // this round waits for the editor's own save to show (see reconcile)
  boost::asio::steady_timer timer;
  bool writer_open = false;
  Clock::time_point first_event{}; // of this round of events
  Clock::time_point last_event{};
  bool armed = false;
  std::optional<Clock::time_point> missing_since, empty_since;
  bool told_missing = false;
  bool merging = false, again = false;
  int failures = 0;
  std::string skipped; // clean mode: the disk text last left out of a dirty buffer
};

Reconciler::Reconciler(LspServer& server, HashlineService& service, ReconcileOptions options)
    : server_(server), service_(service), options_(std::move(options)) {
  listener_id_ = server_.documents().addListener(
      [this](const DocumentEvent& event) { onDocumentEvent(event); });
  setMode(options_.mode);
}

Reconciler::~Reconciler() {
  server_.documents().removeListener(listener_id_);
}

void Reconciler::setMode(ReconcileMode mode) {
  options_.mode = mode;
  if (mode == ReconcileMode::Off) {
    while (!tracked_.empty())
      untrack(tracked_.begin()->first);
    watcher_.reset();
    return;
  }
  if (!watcher_)
    watcher_ = std::make_unique<FileWatcher>(
        server_.io(), [this](const std::string& directory, const std::string& name,
                             std::uint32_t mask) { onFileEvent(directory, name, mask); });
  for (const std::string& uri : server_.documents().uris())
    if (const OpenDocument* open = server_.documents().find(uri))
      if (!tracked_.count(canonicalUri(uri))) track(canonicalUri(uri), *open);
}

Reconciler::Tracked* Reconciler::find(const std::string& key) {
  auto found = tracked_.find(key);
  return found == tracked_.end() ? nullptr : found->second.get();
}

void Reconciler::onDocumentEvent(const DocumentEvent& event) {
  if (options_.mode == ReconcileMode::Off) return;
  switch (event.kind) {
  case DocumentEvent::Opened:
    untrack(event.key); // a re-open starts over
    if (event.document) track(event.key, *event.document);
    return;
  case DocumentEvent::Closed:
    untrack(event.key);
    conflicts_.removeDocument(event.key);
    return;
  case DocumentEvent::Changed:
    if (Tracked* tracked = find(event.key); tracked && event.document) {
      tracked->last_change = Clock::now();
      tracked->recent.push_back(
          {event.document->document.version(), event.document->document.text()});
      if (tracked->recent.size() > kRecentVersions) tracked->recent.pop_front();
      if (tracked->waiting) arm(*tracked, options_.quiet); // the awaited text may be here
    }
    return;
  case DocumentEvent::Saved:
    if (Tracked* tracked = find(event.key)) {
      tracked->saved_at = Clock::now();
      if (tracked->waiting) arm(*tracked, options_.quiet);
    }
    return;
  }
}

void Reconciler::track(const std::string& key, const OpenDocument& document) {
  std::optional<std::string> path = fileUriToPath(document.uri);
  if (!path || !watcher_) return; // untitled buffers have no file
  auto tracked = std::make_unique<Tracked>(server_.io());
  tracked->key = key;
  tracked->uri = document.uri;
  tracked->path = *path;
  SettledRead disk = readSettled(*path, options_.max_bytes);
  if (disk.kind == SettledRead::Text) tracked->base = std::move(disk.bytes);
  tracked->recent.push_back({document.document.version(), document.document.text()});
  std::vector<std::string> paths = {*path};
  if (char* real = ::realpath(path->c_str(), nullptr)) {
    if (*path != real) paths.push_back(real);
    std::free(real);
  }
  for (const std::string& watched : paths)
    if (watcher_->watch(directoryOf(watched))) {
      tracked->watched.push_back(watched);
      by_path_[watched] = key;
    }
  tracked_[key] = std::move(tracked);
}

void Reconciler::untrack(const std::string& key) {
  auto found = tracked_.find(key);
  if (found == tracked_.end()) return;
  for (const std::string& watched : found->second->watched) {
    if (watcher_) watcher_->unwatch(directoryOf(watched));
    if (auto entry = by_path_.find(watched); entry != by_path_.end() && entry->second == key)
      by_path_.erase(entry);
  }
  tracked_.erase(found);
}

void Reconciler::onFileEvent(const std::string& directory, const std::string& name,
                             std::uint32_t mask) {
  if (name.empty()) { // overflow, or the directory itself went away: look at everything there
    for (auto& [key, tracked] : tracked_) {
      const auto& watched = tracked->watched;
      if (mask & IN_Q_OVERFLOW ||
          std::any_of(watched.begin(), watched.end(),
                      [&](const std::string& path) { return directoryOf(path) == directory; }))
        arm(*tracked, options_.quiet);
    }
    return;
  }
  auto found = by_path_.find(directory == "/" ? "/" + name : directory + "/" + name);
  if (found == by_path_.end()) return;
  Tracked* tracked = find(found->second);
  if (!tracked) return;
  if (mask & IN_MODIFY) tracked->writer_open = true;
  if (mask & (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE))
    tracked->writer_open = false;
  tracked->last_event = Clock::now();
  if (!tracked->armed && !tracked->waiting) tracked->first_event = tracked->last_event; // new round
  arm(*tracked, tracked->writer_open ? options_.open_writer_quiet : options_.quiet);
}

void Reconciler::arm(Tracked& tracked, milliseconds after) {
  tracked.armed = true;
  tracked.timer.expires_after(after);
  tracked.timer.async_wait([this, key = tracked.key](const boost::system::error_code& error) {
    if (error) return; // re-armed or gone
    if (Tracked* tracked = find(key)) tracked->armed = false;
    check(key);
  });
}

void Reconciler::check(const std::string& key) {
  Tracked* tracked = find(key);
  if (!tracked) return;
  if (tracked->merging) {
    tracked->again = true;
    return;
  }
  if (tracked->writer_open && since(tracked->first_event) < options_.open_writer_limit)
    return arm(*tracked, options_.open_writer_quiet);
  SettledRead disk = readSettled(tracked->path, options_.max_bytes);
  switch (disk.kind) {
  case SettledRead::Unsettled:
    return arm(*tracked, options_.open_writer_quiet);
  case SettledRead::Failed:
  case SettledRead::TooLarge:
    log::warn("reconcile: not reading ", tracked->path, ": ", disk.problem);
    return;
  case SettledRead::Missing: {
    if (!tracked->base) return; // it never existed on disk
    if (!tracked->missing_since) tracked->missing_since = Clock::now();
    milliseconds away = since(*tracked->missing_since);
    if (away < options_.missing_grace) return arm(*tracked, options_.missing_grace - away);
    if (tracked->told_missing) return;
    tracked->told_missing = true;
    log::info("reconcile: ", tracked->path, " was deleted or moved; the buffer keeps its text");
    server_.notify("window/showMessage",
                   {{"type", 3},
                    {"message", "hashline: " + fileName(tracked->path) +
                                    " was deleted or moved on disk; the buffer keeps its text "
                                    "(save it to write the file again)."}});
    announce(*tracked, {{"kind", "deleted"}});
    return;
  }
  case SettledRead::Text:
    break;
  }
  tracked->missing_since.reset();
  tracked->told_missing = false;
  if (tracked->base && disk.bytes == *tracked->base) return; // touched, rewritten unchanged
  if (disk.bytes.empty() && !(tracked->base && tracked->base->empty())) {
    if (!tracked->empty_since) tracked->empty_since = Clock::now();
    milliseconds empty_for = since(*tracked->empty_since);
    if (empty_for < options_.empty_grace) return arm(*tracked, options_.empty_grace - empty_for);
  }
  tracked->empty_since.reset();
  reconcile(*tracked, std::move(disk.bytes));
}

void Reconciler::reconcile(Tracked& tracked, std::string disk) {
  OpenDocument* open = server_.documents().find(tracked.key);
  if (!open || open->desynced()) return;
  const Rope& current = open->document.text();
  // The buffer held this text (now or at a recent version): the editor wrote it — its own save,
  // or (VS Code, clean buffers) its own reload of a foreign write, which shows as a version that
  // left the base with no didSave around the write.
  std::optional<std::size_t> held;
  for (std::size_t i = tracked.recent.size(); !held && i-- > 0;)
    if (ropeEquals(tracked.recent[i].text, disk)) held = i;
  if (held) {
    const bool left_the_base =
        *held > 0 && tracked.base && ropeEquals(tracked.recent[*held - 1].text, *tracked.base);
    if (left_the_base && !tracked.savedThisRound()) {
      if (waitForOwnSave(tracked, options_.save_wait)) return; // its didSave may be on the way
      journalEditorReload(tracked, *held);
    } else {
      log::debug("reconcile: ", tracked.path, " saved by the editor");
      conflicts_.removeDocument(tracked.key); // the user saved their side
    }
    tracked.waiting = false;
    tracked.base = std::move(disk);
    tracked.recent.erase(tracked.recent.begin(), tracked.recent.end() - 1);
    return;
  }
  // Text the buffer never showed. After a didSave it is the editor's own save whose didChange
  // is still debounced (Neovim 0.7 sends didSave without flushing them): wait for it. While the
  // user types, the didSave itself may be on the way: wait a little for it.
  if (tracked.savedThisRound() && waitForOwnSave(tracked, options_.save_settle, true)) return;
  if (since(tracked.last_change) < options_.typing_window &&
      waitForOwnSave(tracked, options_.save_wait))
    return;
  tracked.waiting = false;
  const bool dirty = !tracked.base || !ropeEquals(current, *tracked.base);
  if (dirty && options_.mode == ReconcileMode::Clean) {
    if (tracked.skipped == disk) return;
    tracked.skipped = disk;
    server_.notify("window/showMessage",
                   {{"type", 2},
                    {"message", "hashline: " + fileName(tracked.path) +
                                    " changed on disk while it has unsaved changes; not merged "
                                    "(reconcile = clean)."}});
    return;
  }
  merge(tracked, std::move(disk));
}

void Reconciler::merge(Tracked& tracked, std::string disk) {
  OpenDocument* open = server_.documents().find(tracked.key);
  struct MergeState {
    std::string base, theirs;
    merge::MergeResult last;
    Rope before; // the buffer when the write was seen
    std::int64_t before_version = 0;
  };
  auto state = std::make_shared<MergeState>();
  state->base = tracked.base.value_or(std::string());
  state->theirs = std::move(disk);
  state->before = open->document.text();
  state->before_version = open->document.version();
  state->last = merge::mergeThreeWay(state->base, open->document.text().toString(), state->theirs);
  if (!state->last.differs) { // the buffer already holds the disk's text
    tracked.base = std::move(state->theirs);
    return;
  }
  if (state->last.edits.empty()) { // every disk hunk overlaps the user's typing
    json message = {{"kind", "conflict"}, {"hunks", 0}};
    noteConflicts(tracked, state->last, open->document.version(), message);
    message["bufferMatchesDisk"] = false;
    tracked.base = std::move(state->theirs);
    announce(tracked, std::move(message));
    return;
  }
  tracked.merging = true;
  BufferPlanner planner = [state](OpenDocument& document, bool) -> Result<PlannedEdit> {
    if (document.document.version() != state->before_version) // the user typed: merge again
      state->last =
          merge::mergeThreeWay(state->base, document.document.text().toString(), state->theirs);
    if (state->last.edits.empty())
      return Error::make(ErrorCode::NoChange, "the buffer already holds the disk's change");
    EditPlan plan;
    plan.base_version = document.document.version();
    plan.edits = state->last.edits;
    return completePlan(std::move(plan), document.document.text(), Tier::Block);
  };
  CallerIdentity caller;
  caller.session = "disk";
  caller.agent = options_.agent;
  const std::string key = tracked.key;
  service_.applyToBuffer(
      key, "reconcile", caller, std::move(planner),
      [this, key, state](Result<BufferApplied> outcome, std::uint64_t op) {
        Tracked* tracked = find(key);
        if (!tracked) return;
        if (!outcome && outcome.error().code != ErrorCode::NoChange) {
          log::warn("reconcile: merging the disk change of ", tracked->path,
                    " failed: ", outcome.error().message);
          if (++tracked->failures <= 3) {
            tracked->merging = false;
            return arm(*tracked, options_.open_writer_quiet * 2);
          }
          server_.notify("window/showMessage",
                         {{"type", 1},
                          {"message", "hashline: could not merge the disk change of " +
                                          fileName(tracked->path) + " into the buffer (" +
                                          outcome.error().message + ")."}});
        }
        tracked->failures = 0;
        tracked->base = state->theirs;
        if (!outcome) { // NO_CHANGE: the buffer reached the disk text by itself
          const OpenDocument* open = server_.documents().find(key);
          // VS Code reloads a clean buffer from disk on its own, racing our edit: journal that
          // reload as the merge, so it is reviewable and undoable like one.
          if (open && ropeEquals(state->before, state->base) &&
              ropeEquals(open->document.text(), state->theirs)) {
            AppliedEdit record;
            record.method = "reconcile";
            record.caller.session = "disk";
            record.caller.agent = options_.agent;
            record.uri = open->uri;
            record.path = tracked->path;
            record.version_before = state->before_version;
            record.version_after = open->document.version();
            record.before = state->before;
            record.after = open->document.text();
            record.plan.base_version = state->before_version;
            record.plan.edits = minimalEdits(state->base, state->theirs);
            json message = {{"kind", "merged"},
                            {"version", open->document.version()},
                            {"hunks", state->last.taken.size()},
                            {"bufferMatchesDisk", true},
                            {"reloadedByEditor", true}};
            if (std::uint64_t op = service_.recordAppliedEdit(record)) message["op"] = op;
            announce(*tracked, std::move(message));
          }
        }
        if (outcome) {
          const BufferApplied& applied = *outcome;
          json message = {{"kind", state->last.conflicts.empty() ? "merged" : "conflict"},
                          {"version", applied.version_after},
                          {"hunks", state->last.taken.size()}};
          if (op) message["op"] = op;
          // Versions before the merge are not the editor's own saves any more.
          while (tracked->recent.size() > 1 &&
                 tracked->recent.front().version < applied.version_after)
            tracked->recent.pop_front();
          noteConflicts(*tracked, state->last, applied.version_after, message);
          const OpenDocument* open = server_.documents().find(key);
          message["bufferMatchesDisk"] = open && ropeEquals(open->document.text(), state->theirs);
          log::info("reconcile: merged a disk write into ", tracked->path, " (",
                    state->last.taken.size(), " hunks, ", state->last.conflicts.size(),
                    " conflicts, op ", op, ")");
          announce(*tracked, std::move(message));
        }
        finishMerge(key);
      });
}

bool Reconciler::waitForOwnSave(Tracked& tracked, std::chrono::milliseconds limit,
                                bool while_mirror_moves) {
  // Each write restarts the wait; after a didSave, so does each didChange (the mirror is still
  // catching up with what the editor saved).
  const Clock::time_point from =
      while_mirror_moves ? std::max(tracked.last_event, tracked.last_change) : tracked.last_event;
  const milliseconds waited = since(from);
  if (waited >= limit) return false;
  tracked.waiting = true; // a didChange or didSave re-checks sooner
  arm(tracked, limit - waited);
  return true;
}

void Reconciler::journalEditorReload(Tracked& tracked, std::size_t held) {
  const Tracked::Version& before = tracked.recent[held - 1];
  const Tracked::Version& after = tracked.recent[held];
  AppliedEdit record;
  record.method = "reconcile";
  record.caller.session = "disk";
  record.caller.agent = options_.agent;
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
  message["bufferMatchesDisk"] = open && ropeEquals(open->document.text(), after.text.toString());
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

void Reconciler::conflicts(const json& params, ServiceCallback done) {
  std::optional<std::string> key;
  if (const auto uri = params.find("uri"); uri != params.end()) {
    if (!uri->is_string())
      return done(RpcError::make(RpcErrorCode::InvalidParams, "uri: expected a string"));
    key = canonicalUri(uri->get<std::string>());
  } else if (const auto path = params.find("path"); path != params.end()) {
    if (!path->is_string())
      return done(RpcError::make(RpcErrorCode::InvalidParams, "path: expected a string"));
    std::string spelled = path->get<std::string>();
    if (!spelled.empty() && spelled[0] != '/' && !server_.workspaceRoots().empty())
      spelled = server_.workspaceRoots().front() + "/" + spelled;
    key = canonicalUri(pathToFileUri(spelled));
  }
  json listed = json::array();
  for (const OpenConflict* conflict : conflicts_.list(key))
    listed.push_back(conflictJSON(*conflict));
  done(json{{"status", "ok"}, {"conflicts", std::move(listed)}});
}

void Reconciler::resolve(const json& params, ServiceCallback done) {
  const auto id = params.find("conflict");
  if (id == params.end() || !id->is_string())
    return done(RpcError::make(RpcErrorCode::InvalidParams, "conflict: expected a string (c1)"));
  const auto take = params.find("take");
  if (take == params.end() || !take->is_string() || (*take != "theirs" && *take != "ours"))
    return done(
        RpcError::make(RpcErrorCode::InvalidParams, "take: expected \"theirs\" or \"ours\""));
  const OpenConflict* found = conflicts_.find(id->get<std::string>());
  if (!found) {
    Error error = Error::make(ErrorCode::NotFound, "no open conflict " + id->get<std::string>());
    error.withHint("`hashline conflicts` lists the open conflicts (saving the file closes them)");
    return done(refusalToJSON(error));
  }
  OpenConflict conflict = *found;
  if (*take == "ours") {
    conflicts_.remove(conflict.id);
    return done(json{{"status", "ok"}, {"conflict", conflict.id}, {"take", "ours"}});
  }
  BufferPlanner planner = [conflict](OpenDocument& document, bool) -> Result<PlannedEdit> {
    Result<EditPlan> plan = planTakeTheirs(conflict, document.document.text());
    if (!plan) return plan.error();
    plan->base_version = document.document.version();
    return completePlan(std::move(*plan), document.document.text(), Tier::Block);
  };
  CallerIdentity caller;
  caller.session = "disk";
  caller.agent = options_.agent;
  service_.applyToBuffer(conflict.key, "resolve", caller, std::move(planner),
                         [this, conflict, done](Result<BufferApplied> outcome, std::uint64_t op) {
                           if (!outcome) return done(refusalToJSON(outcome.error()));
                           conflicts_.remove(conflict.id);
                           json result = {{"status", "applied"},
                                          {"conflict", conflict.id},
                                          {"take", "theirs"},
                                          {"version", outcome->version_after}};
                           if (op) result["op"] = op;
                           done(std::move(result));
                         });
}

void registerReconciler(LspServer& server, HashlineService& service, ReconcileOptions options) {
  // Lives as long as the service (which is never destroyed; see service_feature.cpp).
  auto* reconciler = new Reconciler(server, service, std::move(options));
  service.addMethod("conflicts", [reconciler](const json& params, ServiceCallback done) {
    reconciler->conflicts(params, std::move(done));
  });
  service.addMethod("resolve", [reconciler](const json& params, ServiceCallback done) {
    reconciler->resolve(params, std::move(done));
  });
  server.onInitialize([&server, reconciler](const InitializeParams& params, json&) {
    const json& options = params.initializationOptions;
    if (!options.is_object() || !options.contains("reconcile")) return;
    const json& mode = options["reconcile"];
    std::optional<ReconcileMode> parsed =
        mode.is_string() ? parseReconcileMode(mode.get<std::string>()) : std::nullopt;
    if (!parsed) {
      server.logToClient(MessageType::Warning,
                         "hashline: initializationOptions.reconcile must be \"off\", \"clean\" or "
                         "\"merge\"; keeping \"" +
                             std::string(reconcileModeName(reconciler->mode())) + "\"");
      return;
    }
    reconciler->setMode(*parsed);
  });
}

void addDiskModeConflictMethods(HashlineService& service) {
  service.addMethod("conflicts", [](const json&, ServiceCallback done) {
    done(json{{"status", "ok"},
              {"conflicts", json::array()},
              {"note", "no editor sidecar holds this workspace: nothing is reconciled"}});
  });
  service.addMethod("resolve", [](const json&, ServiceCallback done) {
    Error error = Error::make(ErrorCode::NotFound, "no editor sidecar holds this workspace, so "
                                                   "there are no conflicts to resolve");
    error.withHint("conflicts exist only while an editor runs `hashline lsp` on the workspace");
    done(refusalToJSON(error));
  });
}

} // namespace hashline::lsp
