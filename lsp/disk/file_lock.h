// FileLock: an exclusive advisory lock (flock) that serializes hashline processes and threads
// working on the same file or state record.
//
// Two CLI runs editing the same file must not both pass the staleness check and then both write
// (scenario 36): the check and the rename run under this lock, so the second sees the first's
// bytes and gets STALE_VERSION. The lock is never taken on the edited file itself — an atomic
// rename replaces that inode, so a lock on it would protect nothing — but on a lock file named
// after the canonical path (`<runtime dir>/locks/<hash>.lock`); lock files are never deleted,
// which would race. flock locks belong to an open file description, so two FileLocks conflict
// even within one process (threads serialize too), and the kernel drops a lock when its holder
// dies, so a crashed process never leaves a file locked.
//
// Advisory: it does not stop an editor or another tool; the fingerprint re-check covers those.
// A FileLock is move-only; release happens on destruction.
#pragma once

#include "engine/support/result.h"
#include "lsp/disk/unique_fd.h"

#include <chrono>
#include <optional>
#include <string>

namespace hashline::disk {

class FileLock {
public:
  /// How long acquire waits for another holder before giving up with IO_ERROR.
  static constexpr std::chrono::milliseconds kDefaultTimeout{30'000};

  /// Locks `lock_file` (created 0600 if missing), waiting up to `timeout`.
  static Result<FileLock> acquire(const std::string& lock_file,
                                  std::chrono::milliseconds timeout = kDefaultTimeout);
  /// Locks `lock_file` only if free right now; nullopt when another holder has it.
  static Result<std::optional<FileLock>> tryAcquire(const std::string& lock_file);

  /// The lock file guarding canonical `real_path` (in the runtime directory's `locks/`).
  static Result<std::string> lockFileFor(const std::string& real_path);
  /// acquire(lockFileFor(real_path)).
  static Result<FileLock> forPath(const std::string& real_path,
                                  std::chrono::milliseconds timeout = kDefaultTimeout);

  FileLock(FileLock&& other) noexcept = default;
  FileLock& operator=(FileLock&& other) noexcept = default;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool held() const { return fd_.valid(); }
  /// Drops the lock now (idempotent).
  void release();

private:
  explicit FileLock(UniqueFd fd) : fd_(std::move(fd)) {}
  UniqueFd fd_; // closing the only descriptor drops the flock
};

} // namespace hashline::disk
