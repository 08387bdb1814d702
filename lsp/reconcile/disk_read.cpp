// readSettled: open, read, re-check; see disk_read.h.
#include "lsp/reconcile/disk_read.h"

#include "lsp/disk/unique_fd.h"
#include "lsp/platform/file_times.h"
#include "lsp/reconcile/read_buffers.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::lsp {

namespace {

/// From this size on a read buffer is a mapping from the pool (see read_buffers.h).
constexpr std::size_t kMappedBytes = std::size_t(1) << 20;

bool sameState(const struct stat& a, const struct stat& b) {
  return a.st_ino == b.st_ino && a.st_dev == b.st_dev && a.st_size == b.st_size &&
         platform::modifiedNanoseconds(a) == platform::modifiedNanoseconds(b);
}

SettledRead failed(std::string problem) {
  SettledRead read;
  read.kind = SettledRead::Failed;
  read.problem = std::move(problem);
  return read;
}

} // namespace

FileBytes::FileBytes(std::size_t capacity) : capacity_(capacity) {
  if (capacity >= kMappedBytes) {
    read_buffers::Mapping mapping = read_buffers::acquire(capacity);
    if (mapping.data) {
      data_ = mapping.data;
      mapped_capacity_ = mapping.capacity;
      return;
    }
  }
  data_ = capacity ? new char[capacity] : nullptr; // uninitialized
}

FileBytes::~FileBytes() {
  if (mapped_capacity_)
    read_buffers::release({data_, mapped_capacity_});
  else
    delete[] data_;
}

SettledRead readSettled(const std::string& path, std::size_t max_bytes) {
  SettledRead read;
  disk::UniqueFd file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  const int fd = file.get();
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return {SettledRead::Missing, {}, {}};
    return failed(std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat before {};
  if (::fstat(fd, &before) != 0 || !S_ISREG(before.st_mode)) {
    return failed("not a regular file");
  }
  if (static_cast<std::size_t>(before.st_size) > max_bytes) {
    return {SettledRead::TooLarge, {}, std::to_string(before.st_size) + " bytes"};
  }
  // One byte more than the file: a read that fills the size exactly then sees EOF; a file that
  // grew meanwhile fills the spare byte and is not settled.
  const std::size_t capacity = static_cast<std::size_t>(before.st_size) + 1;
  auto data = std::make_shared<FileBytes>(capacity);
  std::size_t got = 0;
  for (;;) {
    if (got == capacity) {
      ::close(fd);
      return {SettledRead::Unsettled, {}, {}};
    }
    ssize_t n = ::read(fd, data->buffer() + got, capacity - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return failed(std::string("read failed: ") + std::strerror(errno));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  data->setSize(got);
  read.bytes = std::move(data);
  struct stat after {};
  struct stat at_path {};
  const bool settled = ::fstat(fd, &after) == 0 && sameState(before, after) &&
                       got == static_cast<std::size_t>(after.st_size) &&
                       ::stat(path.c_str(), &at_path) == 0 && sameState(after, at_path);
  read.kind = settled ? SettledRead::Text : SettledRead::Unsettled;
  return read;
}

} // namespace hashline::lsp
