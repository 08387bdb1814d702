// Listing a directory by descriptor; see dir_entries.h.
#include "lsp/disk/dir_entries.h"

#include "lsp/disk/unique_fd.h"

#include <dirent.h>
#include <fcntl.h>
#include <memory>

namespace hashline::disk {

std::vector<std::string> directoryEntries(int dir_fd) {
  std::vector<std::string> names;
  UniqueFd list_fd(::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!list_fd) return names;
  std::unique_ptr<DIR, int (*)(DIR*)> stream(::fdopendir(list_fd.get()), ::closedir);
  if (!stream) return names;
  list_fd.release(); // closedir closes it
  while (const dirent* entry = ::readdir(stream.get())) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  return names;
}

} // namespace hashline::disk
