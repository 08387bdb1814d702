// readSettled: open, read, re-check; see disk_read.h.
#include "lsp/reconcile/disk_read.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::lsp {

namespace {

bool sameState(const struct stat& a, const struct stat& b) {
  return a.st_ino == b.st_ino && a.st_dev == b.st_dev && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

SettledRead failed(std::string problem) {
  SettledRead read;
  read.kind = SettledRead::Failed;
  read.problem = std::move(problem);
  return read;
}

} // namespace

SettledRead readSettled(const std::string& path, std::size_t max_bytes) {
  SettledRead read;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return {SettledRead::Missing, {}, {}};
    return failed(std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat before {};
  if (::fstat(fd, &before) != 0 || !S_ISREG(before.st_mode)) {
    ::close(fd);
    return failed("not a regular file");
  }
  if (static_cast<std::size_t>(before.st_size) > max_bytes) {
    ::close(fd);
    return {SettledRead::TooLarge, {}, std::to_string(before.st_size) + " bytes"};
  }
  // One byte more than the file: a read that fills the size exactly then sees EOF; a file that
  // grew meanwhile fills the spare byte and is not settled.
  const std::size_t capacity = static_cast<std::size_t>(before.st_size) + 1;
  auto data = std::make_unique_for_overwrite<char[]>(capacity);
  std::size_t got = 0;
  for (;;) {
    if (got == capacity) {
      ::close(fd);
      return {SettledRead::Unsettled, {}, {}};
    }
    ssize_t n = ::read(fd, data.get() + got, capacity - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return failed(std::string("read failed: ") + std::strerror(errno));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  read.bytes = std::make_shared<const FileBytes>(std::move(data), got);
  struct stat after {};
  struct stat at_path {};
  const bool settled = ::fstat(fd, &after) == 0 && sameState(before, after) &&
                       got == static_cast<std::size_t>(after.st_size) &&
                       ::stat(path.c_str(), &at_path) == 0 && sameState(after, at_path);
  ::close(fd);
  read.kind = settled ? SettledRead::Text : SettledRead::Unsettled;
  return read;
}

} // namespace hashline::lsp
