// The state the reconciler keeps per open `file:` document, shared by its translation units
// (reconciler.cpp: watch, settle, classify; reconcile_merge.cpp: merge, journal, announce).
// Private to lsp/reconcile.
#pragma once

#include "engine/text/text_compare.h"
#include "lsp/reconcile/reconciler.h"

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::lsp {

using ReconcileClock = std::chrono::steady_clock;

/// Microseconds from `then` to now (for the debug log's timings).
inline long long microsSince(ReconcileClock::time_point then) {
  return std::chrono::duration_cast<std::chrono::microseconds>(ReconcileClock::now() - then)
      .count();
}

struct Reconciler::Tracked {
  explicit Tracked(boost::asio::io_context& io) : timer(io) {}
  std::string key, uri, path;
  /// The paths whose directory entries are watched: the document's, and the file it resolves to
  /// when that differs (a symlink: agents write the target).
  std::vector<std::string> watched;
  /// The text the buffer last had in common with the disk; null: no file on disk when opened.
  /// Shared, never copied: a merge in flight holds it while the next write is read.
  SharedFileBytes base;
  struct Version {
    std::int64_t version = 0;
    Rope text;
  };
  std::deque<Version> recent; // the buffer's versions since the last base point
  /// Versions of `recent` (or about to be: the service may confirm an edit before this sees its
  /// didChange) that an edit hashline applied made, journaled as that edit's op.
  std::set<std::int64_t> by_hashline;
  void forgetBefore(std::int64_t version) {
    by_hashline.erase(by_hashline.begin(), by_hashline.lower_bound(version));
  }
  ReconcileClock::time_point last_change{};           // of the user's typing (see onDocumentEvent)
  std::int64_t merged_version = -1;                   // the buffer version the last merge landed as
  std::optional<ReconcileClock::time_point> saved_at; // the last didSave
  std::int64_t saved_version = -1;                    // the buffer version when it arrived
  /// A didSave belongs to this round of events (it may arrive just before the write's event).
  bool savedThisRound() const {
    return saved_at && *saved_at + std::chrono::milliseconds(250) > last_event;
  }
  /// The last willSave: the editor announced a save, whose write (and the didChange of the text
  /// it wrote, formatted on save or debounced) may come before its didSave.
  std::optional<ReconcileClock::time_point> will_save_at;
  /// A save was announced and its didSave has not come yet (nor has `limit` passed: a save that
  /// failed sends none).
  bool savingNow(std::chrono::milliseconds limit) const {
    return will_save_at && !(saved_at && *saved_at >= *will_save_at) &&
           ReconcileClock::now() - *will_save_at < limit;
  }
  bool waiting = false; // this round waits for the editor's own save to show (see reconcile)
  boost::asio::steady_timer timer;
  bool writer_open = false;
  ReconcileClock::time_point first_event{}; // of this round of events
  ReconcileClock::time_point last_event{};
  bool armed = false;
  std::optional<ReconcileClock::time_point> missing_since;
  bool told_missing = false;
  bool merging = false, again = false;
  int failures = 0;
  std::string skipped; // clean mode: the disk text last left out of a dirty buffer
};

/// The last component of `path`, for messages.
inline std::string fileName(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace hashline::lsp
