// Reading a file's exact bytes with a consistent fingerprint, and the text check (NUL / UTF-8).
#include "lsp/disk/disk_file.h"

#include "engine/support/utf8.h"
#include "lsp/disk/confined_dir.h"
#include "lsp/disk/unique_fd.h"
#include "lsp/platform/file_times.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

constexpr int kConsistentReadAttempts = 5;

bool sameStat(const struct stat& a, const struct stat& b) {
  return a.st_size == b.st_size &&
         platform::modifiedNanoseconds(a) == platform::modifiedNanoseconds(b) &&
         platform::changedNanoseconds(a) == platform::changedNanoseconds(b);
}

// Reads the whole file from the current offset 0; the size is a hint, EOF decides.
Status readAll(int fd, std::string& bytes, std::size_t size_hint, const std::string& path) {
  bytes.clear();
  bytes.resize(size_hint + 1); // one spare byte detects growth without a second read call
  std::size_t used = 0;
  while (true) {
    if (used == bytes.size()) {
      if (bytes.size() > kMaxFileBytes)
        return Error::make(ErrorCode::IoError, path + ": file is larger than 1 GiB");
      bytes.resize(bytes.size() * 2);
    }
    ssize_t got = ::pread(fd, bytes.data() + used, bytes.size() - used, static_cast<off_t>(used));
    if (got < 0) {
      if (errno == EINTR) continue;
      return systemError(errno, "read", path);
    }
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
  }
  bytes.resize(used);
  return Status::success();
}

} // namespace

Error systemError(int err, std::string_view what, std::string_view path) {
  ErrorCode code = (err == ENOENT || err == ENOTDIR) ? ErrorCode::FileNotFound : ErrorCode::IoError;
  std::string message = std::string(what) + " " + std::string(path) + ": " + std::strerror(err);
  Error error = Error::make(code, std::move(message));
  error.data.path = std::string(path);
  return error;
}

std::optional<std::size_t> firstInvalidUtf8(std::string_view bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t size = bytes.size();
  std::size_t i = 0;
  while (i < size) {
    // ASCII fast path, eight bytes at a time.
    while (i + 8 <= size) {
      std::uint64_t word;
      std::memcpy(&word, data + i, 8);
      if (word & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= size) break;
    const Utf8Sequence sequence = decodeUtf8Sequence(bytes, i);
    if (!sequence.valid()) return i;
    i += sequence.length;
  }
  return std::nullopt;
}

Status checkText(std::string_view bytes, std::string_view path) {
  std::string where = path.empty() ? std::string("the file") : std::string(path);
  if (auto nul = bytes.find('\0'); nul != std::string_view::npos) {
    Error error = Error::make(ErrorCode::NotText, where + " has a NUL byte at byte offset " +
                                                      std::to_string(nul) + "; it is not text");
    error.data.path = std::string(path);
    return error;
  }
  if (auto bad = firstInvalidUtf8(bytes)) {
    Error error =
        Error::make(ErrorCode::NotText, where + " is not valid UTF-8 (first bad byte at offset " +
                                            std::to_string(*bad) + ")");
    error.data.path = std::string(path);
    return error;
  }
  return Status::success();
}

namespace {

// The consistent snapshot of the file open as `fd`.
Result<FileSnapshot> readOpened(const UniqueFd& fd, const std::string& path) {
  FileSnapshot snapshot;
  snapshot.path = path;
  for (int attempt = 0; attempt < kConsistentReadAttempts; ++attempt) {
    struct stat before {};
    if (::fstat(fd.get(), &before) != 0) return systemError(errno, "stat", path);
    if (S_ISDIR(before.st_mode)) return systemError(EISDIR, "read", path);
    if (!S_ISREG(before.st_mode))
      return Error::make(ErrorCode::IoError, path + " is not a regular file");
    if (static_cast<std::uint64_t>(before.st_size) > kMaxFileBytes)
      return Error::make(ErrorCode::IoError, path + ": file is larger than 1 GiB");
    if (auto status =
            readAll(fd.get(), snapshot.bytes, static_cast<std::size_t>(before.st_size), path);
        !status)
      return std::move(status).error();
    struct stat after {};
    if (::fstat(fd.get(), &after) != 0) return systemError(errno, "stat", path);
    if (sameStat(before, after) &&
        static_cast<std::uint64_t>(after.st_size) == snapshot.bytes.size()) {
      snapshot.fingerprint = fingerprintOf(after, snapshot.bytes);
      return snapshot;
    }
  }
  return Error::make(ErrorCode::IoError, path + " kept changing while it was read; retry");
}

// O_NONBLOCK: opening a FIFO must not hang; it is refused as not a regular file.
constexpr int kReadFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;

} // namespace

Result<FileSnapshot> readFileBytes(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), kReadFlags));
  if (!fd) return systemError(errno, "open", path);
  return readOpened(fd, path);
}

Result<FileSnapshot> readFileBytesAt(int dir_fd, const std::string& name,
                                     const std::string& shown_path) {
  UniqueFd fd(::openat(dir_fd, name.c_str(), kReadFlags | O_NOFOLLOW));
  if (!fd) return confinedError(errno, dir_fd, name, "open", shown_path);
  return readOpened(fd, shown_path);
}

Result<Fingerprint> fingerprintFileAt(int dir_fd, const std::string& name,
                                      const std::string& shown_path) {
  UniqueFd fd(::openat(dir_fd, name.c_str(), kReadFlags | O_NOFOLLOW));
  if (!fd) return confinedError(errno, dir_fd, name, "open", shown_path);
  constexpr std::size_t kBlock = 1 << 20;
  std::string block(kBlock, '\0');
  for (int attempt = 0; attempt < kConsistentReadAttempts; ++attempt) {
    struct stat before {};
    if (::fstat(fd.get(), &before) != 0) return systemError(errno, "stat", shown_path);
    if (!S_ISREG(before.st_mode))
      return Error::make(ErrorCode::IoError, shown_path + " is not a regular file");
    ContentHasher hasher;
    std::uint64_t used = 0;
    while (true) {
      ssize_t got = ::pread(fd.get(), block.data(), kBlock, static_cast<off_t>(used));
      if (got < 0) {
        if (errno == EINTR) continue;
        return systemError(errno, "read", shown_path);
      }
      if (got == 0) break;
      hasher.update(std::string_view(block.data(), static_cast<std::size_t>(got)));
      used += static_cast<std::uint64_t>(got);
      if (used > kMaxFileBytes)
        return Error::make(ErrorCode::IoError, shown_path + ": file is larger than 1 GiB");
    }
    struct stat after {};
    if (::fstat(fd.get(), &after) != 0) return systemError(errno, "stat", shown_path);
    if (sameStat(before, after) && static_cast<std::uint64_t>(after.st_size) == used) {
      Fingerprint fingerprint = fingerprintOf(after, std::string_view());
      fingerprint.size_bytes = used;
      fingerprint.content_hash = hasher.digest();
      return fingerprint;
    }
  }
  return Error::make(ErrorCode::IoError, shown_path + " kept changing while it was read; retry");
}

Result<FileSnapshot> readFileBytes(const ResolvedPath& where) {
  ConfinedTarget target = ConfinedTarget::of(where);
  if (target.name.empty()) return systemError(EISDIR, "read", where.real_path);
  auto dir = ConfinedDir::openParent(target);
  if (!dir) return std::move(dir).error();
  return readFileBytesAt(dir->fd(), target.name, where.real_path);
}

Result<FileSnapshot> readTextFile(const ResolvedPath& where) {
  auto snapshot = readFileBytes(where);
  if (!snapshot) return snapshot;
  if (auto status = checkText(snapshot->bytes, where.real_path); !status)
    return std::move(status).error();
  return snapshot;
}

Result<FileSnapshot> readTextFile(const std::string& path) {
  auto snapshot = readFileBytes(path);
  if (!snapshot) return snapshot;
  if (auto status = checkText(snapshot->bytes, path); !status) return std::move(status).error();
  return snapshot;
}

namespace {

Result<std::optional<Fingerprint>> fingerprintOrAbsent(Result<FileSnapshot> snapshot) {
  if (!snapshot) {
    if (snapshot.error().code == ErrorCode::FileNotFound) return std::optional<Fingerprint>();
    return std::move(snapshot).error();
  }
  return std::optional<Fingerprint>(snapshot->fingerprint);
}

} // namespace

Result<std::optional<Fingerprint>> currentFingerprint(const ResolvedPath& where) {
  return fingerprintOrAbsent(readFileBytes(where));
}

Result<std::optional<Fingerprint>> currentFingerprint(const std::string& path) {
  return fingerprintOrAbsent(readFileBytes(path));
}

} // namespace hashline::disk
