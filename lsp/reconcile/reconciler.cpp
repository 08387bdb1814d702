// Reconciler: watch, settle, classify, merge, apply, journal, announce; see reconciler.h.
#include "engine/diff/minimal_edits.h"
#include "lsp/protocol/error_json.h"
#include "lsp/reconcile/disk_read.h"
#include "lsp/reconcile/read_buffers.h"
#include "lsp/reconcile/tracked_document.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/edit_planner.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/log.h"
#include "lsp/support/uri.h"

#include <algorithm>
#include <cstdlib>

namespace hashline::lsp {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

/// Recent buffer versions kept per document to recognise the editor's own saves.
constexpr std::size_t kRecentVersions = 64;

milliseconds since(Clock::time_point then) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - then);
}

std::string directoryOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

} // namespace

Reconciler::Reconciler(LspServer& server, HashlineService& service, ReconcileOptions options)
    : server_(server), service_(service), options_(std::move(options)), spare_expiry_(server.io()) {
  listener_id_ = server_.documents().addListener(
      [this](const DocumentEvent& event) { onDocumentEvent(event); });
  service_.setEditObserver([this](const AppliedEdit& edit) { onApplied(edit); });
  setMode(options_.mode);
}

Reconciler::~Reconciler() {
  service_.setEditObserver(nullptr);
  server_.documents().removeListener(listener_id_);
}

void Reconciler::onApplied(const AppliedEdit& edit) {
  if (edit.backend != AppliedEdit::Backend::Buffer) return;
  if (Tracked* tracked = find(canonicalUri(edit.uri)))
    tracked->by_hashline.insert(edit.version_after);
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
    watcher_ = std::make_unique<platform::DirectoryWatcher>(
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
    if (!conflicts_.list(event.key).empty()) { // while tracked: its entries in the file go too
      conflicts_.removeDocument(event.key);
      persistConflicts();
    }
    untrack(event.key);
    return;
  case DocumentEvent::Changed:
    if (Tracked* tracked = find(event.key); tracked && event.document) {
      // The user's typing, not the edit hashline itself is landing (a merge in flight, or the
      // version its confirmation reported): only typing makes a foreign-looking write wait.
      if (!tracked->merging && event.document->document.version() != tracked->merged_version)
        tracked->last_change = Clock::now();
      tracked->recent.push_back(
          {event.document->document.version(), event.document->document.text()});
      if (tracked->recent.size() > kRecentVersions) {
        tracked->recent.pop_front();
        tracked->forgetBefore(tracked->recent.front().version);
      }
      if (tracked->waiting) arm(*tracked, options_.quiet); // the awaited text may be here
    }
    return;
  case DocumentEvent::WillSave:
    if (Tracked* tracked = find(event.key)) tracked->will_save_at = Clock::now();
    return;
  case DocumentEvent::Saved:
    if (Tracked* tracked = find(event.key)) {
      tracked->saved_at = Clock::now();
      if (event.document) tracked->saved_version = event.document->document.version();
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
  restoreConflicts(*tracked, document);
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
      if (mask & platform::kWatchOverflow ||
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
  if (mask & platform::kWatchModified) tracked->writer_open = true;
  if (mask & (platform::kWatchClosed | platform::kWatchMovedIn | platform::kWatchMovedOut |
              platform::kWatchDeleted))
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
  const Clock::time_point read_start = Clock::now();
  SettledRead disk = readSettled(tracked->path, options_.max_bytes);
  // The read may leave a spare buffer behind (the old base, once merged): unmapped if no write
  // follows within its life. Each read re-arms the one timer.
  spare_expiry_.expires_after(read_buffers::kSpareLife + std::chrono::seconds(1));
  spare_expiry_.async_wait([](const boost::system::error_code& error) {
    if (!error) read_buffers::expireSpares();
  });
  log::debug("reconcile: read ", tracked->path, " ", microsSince(read_start), " µs after ",
             microsSince(tracked->last_event), " µs from its last event");
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
  if (tracked->base && unchangedOnDisk(*tracked, *disk.bytes)) return; // touched, or no change
  if (disk.bytes->empty() && !(tracked->base && tracked->base->empty())) {
    // Believed only once the file has stayed empty and untouched for the grace: measured from
    // the last write event, not from the first empty read (a long burst of truncate-then-write
    // shows many empty moments; none of them may count towards the grace of a later one).
    const milliseconds untouched = since(tracked->last_event);
    if (untouched < options_.empty_grace) return arm(*tracked, options_.empty_grace - untouched);
  }
  reconcile(*tracked, std::move(disk.bytes));
}

bool Reconciler::unchangedOnDisk(const Tracked& tracked, const FileBytes& disk) const {
  if (disk.size() != tracked.base->size()) return false;
  // Behind a buffer with unsaved typing, an equal-size text is not compared here: the merge scans
  // the disk text against base anyway and finds a rewrite that changed nothing (no hunk of the
  // disk's to take, none in conflict), so the multi-megabyte compare is not paid twice. A clean
  // buffer (the comparison with it stops at the typing when there is any) and clean mode, which
  // decide before any merge, compare here.
  const OpenDocument* open = server_.documents().find(tracked.key);
  const bool dirty = open && !sameText(open->document.text(), *tracked.base);
  if (dirty && options_.mode == ReconcileMode::Merge) return false;
  return disk == *tracked.base;
}

void Reconciler::reconcile(Tracked& tracked, SharedFileBytes disk) {
  OpenDocument* open = server_.documents().find(tracked.key);
  if (!open || open->desynced()) return;
  const Rope& current = open->document.text();
  // The buffer held this text (now or at a recent version): the editor wrote it — its own save,
  // or (VS Code, clean buffers) its own reload of a foreign write, which shows as a version that
  // left the base with no didSave around the write.
  std::optional<std::size_t> held;
  for (std::size_t i = tracked.recent.size(); !held && i-- > 0;)
    if (sameText(tracked.recent[i].text, *disk)) held = i;
  if (held) {
    // (Not when hashline's own journaled edit made that version: an agent's edit of a clean
    // buffer, whose text the agent then writes — Claude Code after an accepted openDiff.)
    const bool left_the_base =
        *held > 0 && !tracked.by_hashline.count(tracked.recent[*held].version) && tracked.base &&
        sameText(tracked.recent[*held - 1].text, *tracked.base);
    // The save announced now, or the save of this round, wrote it — unless the editor flushes
    // changes before saving and this version came after the saved one.
    const bool saved =
        tracked.savingNow(options_.announced_save_limit) ||
        (tracked.savedThisRound() &&
         !(options_.changes_before_save && tracked.recent[*held].version > tracked.saved_version));
    if (left_the_base && !saved) {
      if (waitForEditor(tracked, options_.save_wait)) return; // its didSave may be on the way
      journalEditorReload(tracked, *held);
    } else {
      log::debug("reconcile: ", tracked.path, " saved by the editor");
      if (!conflicts_.list(tracked.key).empty()) {
        conflicts_.removeDocument(tracked.key); // the user saved their side
        persistConflicts();
      }
      // Not the editor's own save (no didSave, no announced one) but text its buffer holds now —
      // Claude Code writing the text an accepted openDiff left in the buffer: tell the editor
      // its buffer equals the disk, so it takes the file's new timestamp and is clean.
      if (!saved && sameText(current, *disk) && !(tracked.base && *tracked.base == *disk))
        announce(tracked, {{"kind", "merged"},
                           {"version", open->document.version()},
                           {"hunks", 0},
                           {"bufferMatchesDisk", true}});
    }
    tracked.waiting = false;
    tracked.base = std::move(disk);
    tracked.recent.erase(tracked.recent.begin(), tracked.recent.end() - 1);
    tracked.forgetBefore(tracked.recent.front().version);
    return;
  }
  // Text the buffer never showed. During an announced save (willSave, no didSave yet) it is
  // that save, whose didChange (a formatter's on save, or debounced) is still on the way: wait
  // for the mirror to show it. After a didSave likewise, in an editor that may send changes after
  // it (not in one that sends them first). While the user types, the didSave itself may be on
  // the way: wait a little for it.
  const bool save_in_flight = tracked.savingNow(options_.announced_save_limit) ||
                              (tracked.savedThisRound() && !options_.changes_before_save);
  if (save_in_flight && waitForEditor(tracked, options_.save_settle, true)) return;
  if (since(tracked.last_change) < options_.typing_window &&
      waitForEditor(tracked, options_.save_wait))
    return;
  const bool dirty = !tracked.base || !sameText(current, *tracked.base);
  // VS Code reloads a clean buffer itself: that keeps its tab clean, hashline's edit would not.
  if (!dirty && waitForEditor(tracked, options_.editor_reload_wait)) return;
  tracked.waiting = false;
  if (dirty && options_.mode == ReconcileMode::Clean) {
    if (tracked.skipped == disk->view()) return;
    tracked.skipped = std::string(disk->view());
    server_.notify("window/showMessage",
                   {{"type", 2},
                    {"message", "hashline: " + fileName(tracked.path) +
                                    " changed on disk while it has unsaved changes; not merged "
                                    "(reconcile = clean)."}});
    return;
  }
  merge(tracked, std::move(disk));
}

bool Reconciler::waitForEditor(Tracked& tracked, std::chrono::milliseconds limit,
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

} // namespace hashline::lsp
