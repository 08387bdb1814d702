// DirectoryWatcher: forwards to the backend this build has; see directory_watcher.h.
#include "lsp/platform/directory_watcher.h"

#include "lsp/platform/watcher_backend.h"

namespace hashline::platform {

DirectoryWatcher::DirectoryWatcher(boost::asio::io_context& io, Listener listener)
    : backend_(makeWatcherBackend(io, std::move(listener))) {}

DirectoryWatcher::~DirectoryWatcher() = default;

bool DirectoryWatcher::ok() const {
  return backend_->ok();
}

bool DirectoryWatcher::watch(const std::string& directory) {
  return backend_->watch(directory);
}

void DirectoryWatcher::unwatch(const std::string& directory) {
  backend_->unwatch(directory);
}

std::size_t DirectoryWatcher::watchedDirectories() const {
  return backend_->watchedDirectories();
}

const char* DirectoryWatcher::mechanism() const {
  return backend_->mechanism();
}

} // namespace hashline::platform
