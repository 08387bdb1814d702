// DirectoryWatcher: changes to the entries of watched directories, delivered on an Asio
// io_context (the reconciler's watcher, issue 13; the torture tests' write detector).
//
// Directories, not files, are watched: agents replace files by rename, `git checkout` unlinks
// and recreates them, and a watch on a file's inode would follow the old inode away. A
// directory is watched while at least one caller holds it (reference counted). Backends, chosen
// when the build is configured (lsp/platform/platform_variant.h):
//  - inotify (Linux): one descriptor for the process, an async wait on it; an idle workspace
//    costs nothing. Reports Modified while a writer has the file open, Closed when it closes.
//  - polling (the portable build, and where nothing better exists): each watched directory is
//    listed and its entries stat'ed every HASHLINE_WATCH_POLL_MS (default 25) ms while any is
//    watched; a changed, new or removed entry is reported once per scan.
//  - kqueue (macOS, the BSDs): the polling backend woken at once by EVFILT_VNODE on each
//    directory (renames, creations, deletions: the atomic-write pattern); in-place writes are
//    seen by the scan.
// Windows seam: ReadDirectoryChangesW. Threading: the io_context's thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::platform {

/// What happened to an entry (bits of a listener's `events`).
enum WatchEvent : std::uint32_t {
  kWatchModified = 1u << 0,      // bytes written; the writer may still have it open
  kWatchClosed = 1u << 1,        // a writer closed it (polling/kqueue: a settled change)
  kWatchMovedIn = 1u << 2,       // renamed to this name
  kWatchMovedOut = 1u << 3,      // renamed away from this name
  kWatchCreated = 1u << 4,       // the name appeared
  kWatchDeleted = 1u << 5,       // the name went away
  kWatchAttributes = 1u << 6,    // mode, owner, times
  kWatchDirectoryGone = 1u << 7, // the directory itself went away (name empty; watch dropped)
  kWatchOverflow = 1u << 8,      // events were lost (directory and name empty): re-check all
};

class DirectoryWatcher {
public:
  using Listener = std::function<void(const std::string& directory, const std::string& name,
                                      std::uint32_t events)>;

  DirectoryWatcher(boost::asio::io_context& io, Listener listener);
  ~DirectoryWatcher();
  DirectoryWatcher(const DirectoryWatcher&) = delete;
  DirectoryWatcher& operator=(const DirectoryWatcher&) = delete;

  /// False when the backend could not start (the reconciler then stays off and says so).
  bool ok() const;
  /// Starts (or adds a reference to) the watch on `directory`; false when it cannot be watched.
  bool watch(const std::string& directory);
  /// Drops one reference; the watch ends with the last.
  void unwatch(const std::string& directory);
  std::size_t watchedDirectories() const;
  /// "inotify", "kqueue" or "polling".
  const char* mechanism() const;

  class Backend;

private:
  std::unique_ptr<Backend> backend_;
};

} // namespace hashline::platform
