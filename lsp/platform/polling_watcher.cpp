// DirectoryWatcher's polling backend (the portable build, macOS and the BSDs with a kqueue
// wake-up, any POSIX system): scans every watched directory each tick; see
// directory_watcher.h.
#include "lsp/platform/platform_variant.h"
#include "lsp/platform/watcher_backend.h"

#if !HASHLINE_LINUX_NATIVE
#include "lsp/platform/directory_snapshot.h"
#include "lsp/platform/kqueue_wakeup.h"
#include "lsp/support/log.h"

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace hashline::platform {

namespace {

std::chrono::milliseconds pollInterval() {
  constexpr long kDefaultMs = 25;
  const char* value = std::getenv("HASHLINE_WATCH_POLL_MS");
  long ms = value ? std::strtol(value, nullptr, 10) : kDefaultMs;
  return std::chrono::milliseconds(ms > 0 ? ms : kDefaultMs);
}

class PollingBackend final : public DirectoryWatcher::Backend {
public:
  PollingBackend(boost::asio::io_context& io, DirectoryWatcher::Listener listener)
      : listener_(std::move(listener)), timer_(io), interval_(pollInterval())
#if HASHLINE_HAS_KQUEUE
        ,
        wakeup_(io, [this](const std::string& directory) { rescan(directory); })
#endif
  {
  }

  bool ok() const override {
    return true;
  }

  bool watch(const std::string& directory) override {
    auto found = watches_.find(directory);
    if (found != watches_.end()) {
      ++found->second.references;
      return true;
    }
    std::optional<DirectorySnapshot> snapshot = scanDirectory(directory);
    if (!snapshot) {
      log::warn("cannot watch ", directory, ": it cannot be listed");
      return false;
    }
    watches_[directory] = Watch{std::move(*snapshot), 1};
#if HASHLINE_HAS_KQUEUE
    (void)wakeup_.add(directory); // without it the scan still sees everything, a tick later
#endif
    log::debug("watching ", directory, " (", mechanism(), ")");
    if (!ticking_) tick();
    return true;
  }

  void unwatch(const std::string& directory) override {
    auto found = watches_.find(directory);
    if (found == watches_.end()) return;
    if (--found->second.references > 0) return;
    forget(found);
  }

  std::size_t watchedDirectories() const override {
    return watches_.size();
  }

  const char* mechanism() const override {
    return HASHLINE_HAS_KQUEUE ? "kqueue" : "polling";
  }

private:
  struct Watch {
    DirectorySnapshot snapshot;
    int references = 0;
  };
  using Watches = std::map<std::string, Watch>;

  void forget(Watches::iterator watch) {
#if HASHLINE_HAS_KQUEUE
    wakeup_.remove(watch->first);
#endif
    watches_.erase(watch);
  }

  void tick() {
    ticking_ = !watches_.empty();
    if (!ticking_) return; // an idle watcher costs nothing; watch() starts it again
    timer_.expires_after(interval_);
    timer_.async_wait([this](const boost::system::error_code& error) {
      if (error) return; // destroyed
      std::vector<std::string> directories;
      for (const auto& [directory, watch] : watches_)
        directories.push_back(directory);
      for (const std::string& directory : directories)
        rescan(directory);
      tick();
    });
  }

  // Reports what changed in `directory` since its last scan; the listener may unwatch anything.
  void rescan(const std::string& directory) {
    auto found = watches_.find(directory);
    if (found == watches_.end()) return;
    std::optional<DirectorySnapshot> now = scanDirectory(directory);
    if (!now) {
      forget(found);
      listener_(directory, "", kWatchDirectoryGone);
      return;
    }
    DirectorySnapshot before = std::exchange(found->second.snapshot, *now);
    reportChanges(before, *now, [&](const std::string& name, std::uint32_t events) {
      listener_(directory, name, events);
    });
  }

  DirectoryWatcher::Listener listener_;
  boost::asio::steady_timer timer_;
  std::chrono::milliseconds interval_;
  bool ticking_ = false;
  Watches watches_;
#if HASHLINE_HAS_KQUEUE
  KqueueWakeup wakeup_;
#endif
};

} // namespace

std::unique_ptr<DirectoryWatcher::Backend> makeWatcherBackend(boost::asio::io_context& io,
                                                              DirectoryWatcher::Listener listener) {
  return std::make_unique<PollingBackend>(io, std::move(listener));
}

} // namespace hashline::platform

#endif
