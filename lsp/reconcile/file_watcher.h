// FileWatcher: inotify on directories, delivered on an Asio io_context (issue 13).
//
// The reconciler watches the *directories* of open documents, not the files: agents replace
// files by rename (write-temp-then-rename), `git checkout` unlinks and recreates them, and a
// watch on the file's inode would follow the old inode away. One inotify descriptor serves the
// whole process; a directory is watched while at least one caller holds it (reference counted),
// so 200 open files in 5 directories cost 5 watches. Events arrive through an async wait on the
// descriptor — no polling, no thread; an idle workspace costs nothing.
//
// Each event names the directory, the entry name and the inotify mask (IN_CLOSE_WRITE, IN_MODIFY,
// IN_MOVED_TO, IN_MOVED_FROM, IN_CREATE, IN_DELETE, IN_ATTRIB; IN_IGNORED when the directory
// itself went away). A queue overflow is reported as one event with an empty name and
// IN_Q_OVERFLOW: the listener must re-check everything it watches.
// Threading: the io_context's thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::lsp {

class FileWatcher {
public:
  using Listener = std::function<void(const std::string& directory, const std::string& name,
                                      std::uint32_t mask)>;

  FileWatcher(boost::asio::io_context& io, Listener listener);
  ~FileWatcher();
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;

  /// False when inotify is unavailable (the reconciler then stays off and says so).
  bool ok() const { return descriptor_.is_open(); }
  /// Starts (or adds a reference to) the watch on `directory`; false when it cannot be watched.
  bool watch(const std::string& directory);
  /// Drops one reference; the watch ends with the last.
  void unwatch(const std::string& directory);
  std::size_t watchedDirectories() const { return by_directory_.size(); }

private:
  void waitForEvents();
  void drain();

  Listener listener_;
  boost::asio::posix::stream_descriptor descriptor_;
  struct Watch {
    int descriptor = -1;
    int references = 0;
  };
  std::map<std::string, Watch> by_directory_;
  std::map<int, std::string> by_descriptor_;
};

} // namespace hashline::lsp
