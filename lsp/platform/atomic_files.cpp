// Unnamed temps, no-replace renames, metadata handles and extended attributes per OS; see
// atomic_files.h.
#include "lsp/platform/atomic_files.h"

#include "lsp/platform/platform_variant.h"

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

#if defined(__linux__)
// Copies each attribute `list` names, reading through `get` (by path or by descriptor).
template <typename List, typename Get> void copyAttributes(List list, Get get, FileHandle to) {
  ssize_t list_size = list(nullptr, 0);
  if (list_size <= 0) return;
  std::string names(static_cast<std::size_t>(list_size), '\0');
  list_size = list(names.data(), names.size());
  if (list_size <= 0) return;
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
}
#endif

} // namespace

FileHandle createUnnamedFile(FileHandle dir, unsigned mode) {
#if HASHLINE_LINUX_NATIVE
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
  std::string proc_path = "/proc/self/fd/" + std::to_string(file);
  if (::linkat(AT_FDCWD, proc_path.c_str(), dir, name, AT_SYMLINK_FOLLOW) == 0) return 0;
  int err = errno;
  if (err != ENOENT) return err;
  // No /proc: AT_EMPTY_PATH works where we hold CAP_DAC_READ_SEARCH.
  if (::linkat(file, "", dir, name, AT_EMPTY_PATH) == 0) return 0;
  return errno;
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
  copyAttributes(
      [&](char* names, std::size_t size) { return ::listxattr(path.c_str(), names, size); },
      [&](const char* name, void* value, std::size_t size) {
        return ::getxattr(path.c_str(), name, value, size);
      },
      to);
#elif defined(__linux__)
  copyAttributes([&](char* names, std::size_t size) { return ::flistxattr(from, names, size); },
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

} // namespace hashline::platform
