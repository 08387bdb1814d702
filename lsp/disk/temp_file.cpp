// Temp files for atomic writes: O_TMPFILE first, an O_EXCL named temp as fallback, flock'ed while
// named so a sweeper can tell a dead writer's litter from a live writer's temp.
#include "lsp/disk/temp_file.h"

#include "engine/support/hex.h"
#include "lsp/disk/confined_dir.h"
#include "lsp/disk/dir_entries.h"
#include "lsp/disk/disk_file.h"
#include "lsp/platform/atomic_files.h"
#include "lsp/platform/process.h"
#include "lsp/platform/secure_random.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <mutex>
#include <set>
#include <sys/file.h>
#include <unistd.h>
#include <utility>

namespace hashline::disk {
namespace {

constexpr int kNameAttempts = 100;
constexpr std::size_t kMaxBaseInTempName = 200; // keeps temp names under NAME_MAX (255)

std::string randomHex() {
  static std::atomic<std::uint64_t> counter{0};
  std::uint64_t value = 0;
  if (!platform::fillSecureRandomNonBlocking(&value, sizeof value)) {
    value =
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
        (static_cast<std::uint64_t>(platform::currentProcessId()) << 32);
  }
  value ^= counter.fetch_add(0x9e3779b97f4a7c15ull);
  return hex64(value);
}

std::string makeTempName(std::string_view target_name) {
  std::string name(kTempPrefix);
  name += target_name.substr(0, kMaxBaseInTempName);
  name += '.';
  name += randomHex();
  return name;
}

void lockExclusive(int fd) {
  while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
  }
}

bool sameInode(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

bool tmpfileUnsupported(int err) {
  // EISDIR: kernels before 3.11 open the directory; EOPNOTSUPP: filesystems without support.
  return err == EOPNOTSUPP || err == EISDIR || err == EINVAL;
}

} // namespace

bool isTempName(std::string_view file_name) {
  return file_name.size() > kTempPrefix.size() &&
         file_name.substr(0, kTempPrefix.size()) == kTempPrefix;
}

std::size_t sweepStaleTemps(const std::string& dir) {
  UniqueFd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  return dir_fd ? sweepStaleTempsAt(dir_fd.get()) : 0;
}

std::size_t sweepStaleTempsAt(int dir_fd) {
  std::size_t removed = 0;
  for (const std::string& name : directoryEntries(dir_fd)) {
    if (!isTempName(name)) continue;
    // A temp carries its target's mode, which may be write-only: any access mode can flock.
    constexpr int kFlags = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
    UniqueFd fd(::openat(dir_fd, name.c_str(), O_RDONLY | kFlags));
    if (!fd && errno == EACCES) fd.reset(::openat(dir_fd, name.c_str(), O_WRONLY | kFlags));
    if (!fd) continue;
    struct stat opened {
    }, named{};
    // A free lock means the writer is gone; re-check the name still is this inode, then remove.
    if (::fstat(fd.get(), &opened) == 0 && S_ISREG(opened.st_mode) &&
        ::flock(fd.get(), LOCK_EX | LOCK_NB) == 0 &&
        ::fstatat(dir_fd, name.c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0 &&
        sameInode(opened, named) && ::unlinkat(dir_fd, name.c_str(), 0) == 0)
      ++removed;
  }
  return removed;
}

void sweepStaleTempsOnce(int dir_fd) {
  static std::mutex mutex;
  static std::set<std::pair<dev_t, ino_t>> swept;
  struct stat dir_stat {};
  if (::fstat(dir_fd, &dir_stat) != 0) return;
  {
    std::lock_guard<std::mutex> guard(mutex);
    if (!swept.insert({dir_stat.st_dev, dir_stat.st_ino}).second) return;
  }
  sweepStaleTempsAt(dir_fd);
}

void sweepStaleTempsOnce(const std::string& dir) {
  UniqueFd dir_fd(platform::openDirectory(platform::kInvalidHandle, dir.c_str()));
  if (dir_fd) sweepStaleTempsOnce(dir_fd.get());
}

void sweepStaleTempsBeside(const ResolvedPath& file) {
  auto dir = ConfinedDir::openParent(ConfinedTarget::of(file));
  if (dir) sweepStaleTempsOnce(dir->fd());
}

Result<TempFile> TempFile::create(int dir_fd, const std::string& dir, std::string_view target_name,
                                  mode_t mode, bool use_tmpfile) {
  if (use_tmpfile) {
    UniqueFd fd(platform::createUnnamedFile(dir_fd, mode));
    if (fd) {
      lockExclusive(fd.get());
      return TempFile(dir_fd, dir, target_name, std::move(fd), true, {});
    }
    if (!tmpfileUnsupported(errno)) return systemError(errno, "create a temp file in", dir);
  }
  std::string name;
  auto fd = createNamed(dir_fd, dir, target_name, mode, &name);
  if (!fd) return std::move(fd).error();
  return TempFile(dir_fd, dir, target_name, std::move(*fd), false, std::move(name));
}

Result<UniqueFd> TempFile::createNamed(int dir_fd, const std::string& dir,
                                       std::string_view target_name, mode_t mode,
                                       std::string* name) {
  for (int attempt = 0; attempt < kNameAttempts; ++attempt) {
    *name = makeTempName(target_name);
    UniqueFd fd(::openat(dir_fd, name->c_str(),
                         O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, mode));
    if (!fd) {
      if (errno == EEXIST) continue;
      return systemError(errno, "create a temp file in", dir);
    }
    lockExclusive(fd.get());
    // A sweeper may have removed the name between our create and our lock: then start over.
    struct stat opened {
    }, named{};
    if (::fstat(fd.get(), &opened) == 0 &&
        ::fstatat(dir_fd, name->c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0 &&
        sameInode(opened, named))
      return fd;
  }
  return Error::make(ErrorCode::IoError, "could not create a unique temp file in " + dir);
}

TempFile::TempFile(TempFile&& other) noexcept
    : dir_fd_(other.dir_fd_), dir_(std::move(other.dir_)),
      target_name_(std::move(other.target_name_)), fd_(std::move(other.fd_)),
      is_tmpfile_(other.is_tmpfile_), synced_(other.synced_),
      temp_name_(std::exchange(other.temp_name_, {})) {}

Status TempFile::write(std::string_view bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t put = ::write(fd_.get(), bytes.data() + written, bytes.size() - written);
    if (put < 0) {
      if (errno == EINTR) continue;
      return systemError(errno, "write a temp file in", dir_);
    }
    written += static_cast<std::size_t>(put);
  }
  return Status::success();
}

Status TempFile::copyOwnerAndMode(const struct stat& original) {
  struct stat current {};
  if (::fstat(fd_.get(), &current) != 0) return systemError(errno, "stat a temp file in", dir_);
  // Ownership first: chown may clear set-id bits, which fchmod then restores. Failures are not
  // fatal — an unprivileged user cannot give files away; the file then belongs to the writer,
  // as with any editor's save.
  if (::geteuid() == 0) {
    if (current.st_uid != original.st_uid || current.st_gid != original.st_gid)
      (void)::fchown(fd_.get(), original.st_uid, original.st_gid);
  } else if (current.st_gid != original.st_gid) {
    (void)::fchown(fd_.get(), static_cast<uid_t>(-1), original.st_gid);
  }
  if (::fchmod(fd_.get(), original.st_mode & 07777) != 0)
    return systemError(errno, "chmod a temp file in", dir_);
  return Status::success();
}

void TempFile::copyExtendedAttributes(int original_fd) {
  platform::copyExtendedAttributes(original_fd, fd_.get());
}

Status TempFile::sync() {
  while (::fsync(fd_.get()) != 0) {
    if (errno == EINTR) continue;
    return systemError(errno, "fsync a temp file in", dir_);
  }
  synced_ = true;
  return Status::success();
}

int TempFile::linkAs(const std::string& link_name) {
  return platform::linkUnnamedFile(fd_.get(), dir_fd_, link_name.c_str());
}

Status TempFile::name() {
  if (!is_tmpfile_ || !temp_name_.empty()) return Status::success();
  for (int attempt = 0; attempt < kNameAttempts; ++attempt) {
    std::string candidate = makeTempName(target_name_);
    int err = linkAs(candidate);
    if (err == EOPNOTSUPP) return becomeNamed(); // this process cannot link unnamed files
    if (err == 0) {
      temp_name_ = std::move(candidate);
      return Status::success();
    }
    if (err != EEXIST) return systemError(err, "link a temp file in", dir_);
  }
  return Error::make(ErrorCode::IoError, "could not name a temp file in " + dir_);
}

Status TempFile::renameOver(std::string_view target_name) {
  if (auto status = name(); !status) return status;
  std::string target(target_name);
  if (::renameat(dir_fd_, temp_name_.c_str(), dir_fd_, target.c_str()) != 0)
    return systemError(errno, "rename over", pathOf(target));
  temp_name_.clear();
  return Status::success();
}

Status TempFile::publishNew(std::string_view target_name) {
  std::string target(target_name);
  auto exists = [&] {
    Error error = Error::make(ErrorCode::StaleVersion,
                              pathOf(target) + " already exists; it appeared since it was checked");
    error.data.path = pathOf(target);
    return error;
  };
  if (temp_name_.empty()) { // unnamed O_TMPFILE: linking it in is atomic and never replaces
    int err = linkAs(target);
    if (err == EEXIST) return exists();
    if (err == EOPNOTSUPP) { // this process cannot link unnamed files: publish a named copy
      if (auto status = becomeNamed(); !status) return status;
    } else if (err != 0) {
      return systemError(err, "link", pathOf(target));
    } else {
      return Status::success();
    }
  }
  int err = platform::renameNoReplace(dir_fd_, temp_name_.c_str(), target.c_str());
  if (err == 0) {
    temp_name_.clear();
    return Status::success();
  }
  if (err == EEXIST) return exists();
  if (err != EINVAL && err != ENOSYS && err != EOPNOTSUPP)
    return systemError(err, "rename to", pathOf(target));
  // No RENAME_NOREPLACE here: a hard link is just as exclusive; then drop the temp name.
  if (::linkat(dir_fd_, temp_name_.c_str(), dir_fd_, target.c_str(), 0) != 0) {
    err = errno;
    return err == EEXIST ? Status(exists()) : Status(systemError(err, "link", pathOf(target)));
  }
  (void)::unlinkat(dir_fd_, temp_name_.c_str(), 0);
  temp_name_.clear();
  return Status::success();
}

Status TempFile::becomeNamed() {
  struct stat unnamed {};
  if (::fstat(fd_.get(), &unnamed) != 0) return systemError(errno, "stat a temp file in", dir_);
  std::string name;
  auto named = createNamed(dir_fd_, dir_, target_name_, 0600, &name);
  if (!named) return std::move(named).error();
  UniqueFd unnamed_fd = std::exchange(fd_, std::move(*named));
  is_tmpfile_ = false;
  temp_name_ = std::move(name); // discard() unlinks it from here on
  char chunk[65536];
  for (off_t at = 0;;) {
    ssize_t got = ::pread(unnamed_fd.get(), chunk, sizeof chunk, at);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return systemError(errno, "read a temp file in", dir_);
    if (got == 0) break;
    if (auto status = write(std::string_view(chunk, static_cast<std::size_t>(got))); !status)
      return status;
    at += got;
  }
  if (auto status = copyOwnerAndMode(unnamed); !status) return status;
  platform::copyExtendedAttributes(unnamed_fd.get(), fd_.get());
  return synced_ ? sync() : Status::success();
}

void TempFile::discard() {
  if (!temp_name_.empty() && dir_fd_ >= 0) (void)::unlinkat(dir_fd_, temp_name_.c_str(), 0);
  temp_name_.clear();
  fd_.reset();
}

} // namespace hashline::disk
