// What a polling watcher remembers of a directory between scans: each entry's identity, size
// and times, and the events that turn one scan into the next.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace hashline::platform {

struct EntryState {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t modified_ns = 0;
  std::int64_t changed_ns = 0;
  std::uint32_t mode = 0;
  bool operator==(const EntryState&) const = default;
};

using DirectorySnapshot = std::map<std::string, EntryState>;

/// The entries of `directory` (not following symlinks), without "." and ".."; nullopt when the
/// directory cannot be listed (gone, or no longer a directory).
std::optional<DirectorySnapshot> scanDirectory(const std::string& directory);

/// Calls `report(name, events)` (WatchEvent bits) for each entry that differs between `before`
/// and `after`: Created|Closed for a new name, Deleted for a removed one, MovedIn|Closed for a
/// name that now is another inode, Closed for new content, Attributes for mode or ctime only.
void reportChanges(const DirectorySnapshot& before, const DirectorySnapshot& after,
                   const std::function<void(const std::string&, std::uint32_t)>& report);

} // namespace hashline::platform
