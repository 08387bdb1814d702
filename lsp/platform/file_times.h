// File times of a stat result as nanoseconds since the epoch: st_mtim/st_ctim (Linux, the BSDs'
// POSIX 2008 names) or st_mtimespec/st_ctimespec (macOS). A POSIX adapter for code that already
// holds a `struct stat` (disk/, reconcile/); Windows will take its times from its own handle
// calls. Inline: the search and read paths call these per file.
#pragma once

#include <cstdint>
#include <sys/stat.h>

namespace hashline::platform {

/// Last content change (mtime), nanoseconds since the epoch.
inline std::int64_t modifiedNanoseconds(const struct stat& status) {
#if defined(__APPLE__)
  const auto& time = status.st_mtimespec;
#else
  const auto& time = status.st_mtim;
#endif
  return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

/// Last inode change (ctime), nanoseconds since the epoch.
inline std::int64_t changedNanoseconds(const struct stat& status) {
#if defined(__APPLE__)
  const auto& time = status.st_ctimespec;
#else
  const auto& time = status.st_ctim;
#endif
  return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

} // namespace hashline::platform
