// Unnamed temps, no-replace renames, metadata handles and extended attributes per OS; see
// atomic_files.h.
#include "lsp/platform/atomic_files.h"

#include "lsp/platform/platform_variant.h"

#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <copyfile.h>
#include <cstdio> // renameatx_np
#elif defined(__linux__)
#include <cstdio> // renameat2
#include <sys/xattr.h>
#endif

namespace hashline::platform {

namespace {

// Set when this process cannot link an unnamed file (no usable /proc, no AT_EMPTY_PATH):
// createUnnamedFile then says EOPNOTSUPP and callers make named temps. Read once per write.
std::atomic<bool> unnamed_links_refused{false};

#if HASHLINE_LINUX_NATIVE
// Whether /proc/self/fd resolves (asked only after a link through it failed): a chroot or
// container may have no /proc, or an odd one — debootstrap --foreign leaves /proc a link to
// itself, and there every path through it fails with ELOOP.
bool procFdUsable() {
  struct stat fd_dir {};
  return ::stat("/proc/self/fd", &fd_dir) == 0 && S_ISDIR(fd_dir.st_mode);
}
#endif

#if defined(__linux__)
// Copies each attribute `list` names, reading through `get` (by path or by descriptor). False
// when the list itself failed (errno says why).
template <typename List, typename Get> bool copyAttributes(List list, Get get, FileHandle to) {
  ssize_t list_size = list(nullptr, 0);
  if (list_size < 0) return false;
  if (list_size == 0) return true;
  std::string names(static_cast<std::size_t>(list_size), '\0');
  list_size = list(names.data(), names.size());
  if (list_size <= 0) return list_size == 0;
  names.resize(static_cast<std::size_t>(list_size));
  std::string value;
  for (std::size_t begin = 0; begin < names.size();) {
    std::size_t end = names.find('\0', begin);
    if (end == std::string::npos) end = names.size();
    std::string name = names.substr(begin, end - begin);
    begin = end + 1;
    ssize_t value_size = get(name.c_str(), nullptr, 0);
    if (value_size < 0) continue;
    value.resize(static_cast<std::size_t>(value_size));
    value_size = get(name.c_str(), value.data(), value.size());
    if (value_size < 0) continue;
    (void)::fsetxattr(to, name.c_str(), value.data(), static_cast<std::size_t>(value_size), 0);
  }
  return true;
}
#endif

} // namespace

FileHandle createUnnamedFile(FileHandle dir, unsigned mode) {
#if HASHLINE_LINUX_NATIVE
  if (unnamed_links_refused.load(std::memory_order_relaxed)) {
    errno = EOPNOTSUPP;
    return kInvalidHandle;
  }
  return ::openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, static_cast<mode_t>(mode));
#else
  (void)dir;
  (void)mode;
  errno = EOPNOTSUPP;
  return kInvalidHandle;
#endif
}

int linkUnnamedFile(FileHandle file, FileHandle dir, const char* name) {
#if HASHLINE_LINUX_NATIVE
  if (unnamed_links_refused.load(std::memory_order_relaxed)) return EOPNOTSUPP;
  std::string proc_path = "/proc/self/fd/" + std::to_string(file);
  if (::linkat(AT_FDCWD, proc_path.c_str(), dir, name, AT_SYMLINK_FOLLOW) == 0) return 0;
  int err = errno;
  if (err == EEXIST || procFdUsable()) return err; // about the name or the directory
  // No usable /proc: AT_EMPTY_PATH links the descriptor itself where the kernel lets us
  // (CAP_DAC_READ_SEARCH; from Linux 6.10 also the file's own opener).
  if (::linkat(file, "", dir, name, AT_EMPTY_PATH) == 0) return 0;
  err = errno;
  if (err != ENOENT && err != EPERM) return err;
  // Neither way: this process makes named temps from now on.
  unnamed_links_refused.store(true, std::memory_order_relaxed);
  return EOPNOTSUPP;
#else
  (void)file;
  (void)dir;
  (void)name;
  return EOPNOTSUPP;
#endif
}

int renameNoReplace(FileHandle dir, const char* from, const char* to) {
#if HASHLINE_LINUX_NATIVE
  return ::renameat2(dir, from, dir, to, RENAME_NOREPLACE) == 0 ? 0 : errno;
#elif defined(__APPLE__)
  if (::renameatx_np(dir, from, dir, to, RENAME_EXCL) == 0) return 0;
  return errno == ENOTSUP ? ENOSYS : errno; // a volume without RENAME_EXCL
#else
  (void)dir;
  (void)from;
  (void)to;
  return ENOSYS;
#endif
}

FileHandle openForMetadata(FileHandle dir, const char* name) {
#if HASHLINE_LINUX_NATIVE
  return ::openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
#else
  // O_NONBLOCK: a FIFO swapped in must not block the open (the caller refuses non-files).
  constexpr int kFlags = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
  int fd = ::openat(dir, name, O_RDONLY | kFlags);
  if (fd < 0 && errno == EACCES) fd = ::openat(dir, name, O_WRONLY | kFlags);
  return fd;
#endif
}

FileHandle openDirectory(FileHandle dir, const char* name, FinalSymlink final_symlink) {
  const int kFlags =
      O_DIRECTORY | O_CLOEXEC | (final_symlink == FinalSymlink::Refuse ? O_NOFOLLOW : 0);
  const int at = dir == kInvalidHandle ? AT_FDCWD : dir;
  int fd = ::openat(at, name, O_RDONLY | kFlags);
#if HASHLINE_LINUX_NATIVE
  if (fd < 0 && errno == EACCES) fd = ::openat(at, name, O_PATH | kFlags);
#elif defined(O_SEARCH)
  if (fd < 0 && errno == EACCES) fd = ::openat(at, name, O_SEARCH | kFlags);
#endif
  return fd;
}

void copyExtendedAttributes(FileHandle from, FileHandle to) {
#if HASHLINE_LINUX_NATIVE
  // Through /proc/self/fd: works for an O_PATH descriptor too, which flistxattr refuses.
  const std::string path = "/proc/self/fd/" + std::to_string(from);
  if (copyAttributes(
          [&](char* names, std::size_t size) { return ::listxattr(path.c_str(), names, size); },
          [&](const char* name, void* value, std::size_t size) {
            return ::getxattr(path.c_str(), name, value, size);
          },
          to))
    return;
  if (errno != ENOENT && errno != ELOOP && errno != ENOTDIR) return; // no attributes here
  if (procFdUsable()) return;
  // No usable /proc: through the descriptor (not an O_PATH one: its attributes are lost).
  (void)copyAttributes(
      [&](char* names, std::size_t size) { return ::flistxattr(from, names, size); },
      [&](const char* name, void* value, std::size_t size) {
        return ::fgetxattr(from, name, value, size);
      },
      to);
#elif defined(__linux__)
  (void)copyAttributes(
      [&](char* names, std::size_t size) { return ::flistxattr(from, names, size); },
      [&](const char* name, void* value, std::size_t size) {
        return ::fgetxattr(from, name, value, size);
      },
      to);
#elif defined(__APPLE__)
  (void)::fcopyfile(from, to, nullptr, COPYFILE_XATTR | COPYFILE_ACL);
#else
  (void)from;
  (void)to;
#endif
}

void refuseUnnamedLinks(bool refused) {
  unnamed_links_refused.store(refused, std::memory_order_relaxed);
}

} // namespace hashline::platform
