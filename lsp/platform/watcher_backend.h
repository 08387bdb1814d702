// The interface each DirectoryWatcher backend implements (inotify_watcher.cpp,
// polling_watcher.cpp); exactly one backend file defines makeWatcherBackend in a build.
#pragma once

#include "lsp/platform/directory_watcher.h"

namespace hashline::platform {

class DirectoryWatcher::Backend {
public:
  virtual ~Backend() = default;
  virtual bool ok() const = 0;
  virtual bool watch(const std::string& directory) = 0;
  virtual void unwatch(const std::string& directory) = 0;
  virtual std::size_t watchedDirectories() const = 0;
  virtual const char* mechanism() const = 0;
};

std::unique_ptr<DirectoryWatcher::Backend> makeWatcherBackend(boost::asio::io_context& io,
                                                              DirectoryWatcher::Listener listener);

} // namespace hashline::platform
