// Scanning a directory and diffing two scans; see directory_snapshot.h.
#include "lsp/platform/directory_snapshot.h"

#include "lsp/platform/directory_watcher.h"
#include "lsp/platform/file_times.h"

#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>

namespace hashline::platform {

std::optional<DirectorySnapshot> scanDirectory(const std::string& directory) {
  std::unique_ptr<DIR, int (*)(DIR*)> stream(::opendir(directory.c_str()), ::closedir);
  if (!stream) return std::nullopt;
  const int dir_fd = ::dirfd(stream.get());
  DirectorySnapshot snapshot;
  while (const dirent* entry = ::readdir(stream.get())) {
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    struct stat info {};
    if (::fstatat(dir_fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) continue; // just gone
    snapshot.emplace(
        std::move(name),
        EntryState{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
                   static_cast<std::int64_t>(info.st_size), modifiedNanoseconds(info),
                   changedNanoseconds(info), static_cast<std::uint32_t>(info.st_mode)});
  }
  return snapshot;
}

void reportChanges(const DirectorySnapshot& before, const DirectorySnapshot& after,
                   const std::function<void(const std::string&, std::uint32_t)>& report) {
  for (const auto& [name, now] : after) {
    auto old = before.find(name);
    if (old == before.end()) {
      report(name, kWatchCreated | kWatchClosed);
    } else if (old->second.inode != now.inode || old->second.device != now.device) {
      report(name, kWatchMovedIn | kWatchClosed);
    } else if (old->second.size != now.size || old->second.modified_ns != now.modified_ns) {
      report(name, kWatchClosed);
    } else if (!(old->second == now)) {
      report(name, kWatchAttributes);
    }
  }
  for (const auto& [name, old] : before)
    if (after.find(name) == after.end()) report(name, kWatchDeleted);
}

} // namespace hashline::platform
