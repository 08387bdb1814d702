// flock-based locks on lock files in the runtime directory.
#include "lsp/disk/file_lock.h"

#include "lsp/disk/disk_file.h"
#include "lsp/disk/fingerprint.h"
#include "lsp/disk/state_dir.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace hashline::disk {
namespace {

Result<UniqueFd> openLockFile(const std::string& lock_file) {
  UniqueFd fd(
      ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600));
  if (!fd) return systemError(errno, "open lock file", lock_file);
  return fd;
}

// 0 = locked, EWOULDBLOCK = held by someone else, other = error.
int tryLock(int fd) {
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    return errno;
  }
  return 0;
}

} // namespace

Result<FileLock> FileLock::acquire(const std::string& lock_file,
                                   std::chrono::milliseconds timeout) {
  auto fd = openLockFile(lock_file);
  if (!fd) return std::move(fd).error();
  FileLock lock(std::move(*fd));
  // Poll rather than block, so a wedged holder turns into an error instead of a hang.
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::chrono::microseconds pause{200};
  while (true) {
    int err = tryLock(lock.fd_.get());
    if (err == 0) return lock;
    if (err != EWOULDBLOCK) return systemError(err, "flock", lock_file);
    if (std::chrono::steady_clock::now() >= deadline)
      return Error::make(ErrorCode::IoError,
                         "another hashline process kept " + lock_file + " locked; retry later");
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds{20'000});
  }
}

Result<std::optional<FileLock>> FileLock::tryAcquire(const std::string& lock_file) {
  auto fd = openLockFile(lock_file);
  if (!fd) return std::move(fd).error();
  FileLock lock(std::move(*fd));
  int err = tryLock(lock.fd_.get());
  if (err == 0) return std::optional<FileLock>(std::move(lock));
  if (err == EWOULDBLOCK) return std::optional<FileLock>();
  return systemError(err, "flock", lock_file);
}

Result<std::string> FileLock::lockFileFor(const std::string& real_path) {
  auto runtime = runtimeDirectory();
  if (!runtime) return runtime;
  std::string locks = *runtime + "/locks";
  if (auto status = ensurePrivateDirectory(locks); !status) return std::move(status).error();
  return locks + "/" + hashContent(real_path).toHex() + ".lock";
}

Result<FileLock> FileLock::forPath(const std::string& real_path,
                                   std::chrono::milliseconds timeout) {
  auto lock_file = lockFileFor(real_path);
  if (!lock_file) return std::move(lock_file).error();
  return acquire(*lock_file, timeout);
}

void FileLock::release() {
  fd_.reset();
}

} // namespace hashline::disk
