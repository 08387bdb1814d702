// The no-follow walk from a trusted anchor to a directory descriptor; see confined_dir.h.
#include "lsp/disk/confined_dir.h"

#include "lsp/disk/disk_file.h"
#include "lsp/platform/atomic_files.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>

namespace hashline::disk {
namespace {

std::string joinPath(const std::string& dir, std::string_view name) {
  if (name.empty()) return dir;
  std::string joined = dir;
  if (joined.empty() || joined.back() != '/') joined += '/';
  joined += name;
  return joined;
}

// A directory entry opened as a directory without following a symlink: readable when we may
// read it (fsync, readdir), else a path-only descriptor, which is enough for every *at call.
int openDirectoryAt(int parent, const char* name) {
  return platform::openDirectory(parent, name);
}

std::vector<std::string_view> componentsOf(std::string_view relative) {
  std::vector<std::string_view> parts;
  while (!relative.empty()) {
    auto slash = relative.find('/');
    parts.push_back(relative.substr(0, slash));
    if (slash == std::string_view::npos) break;
    relative.remove_prefix(slash + 1);
  }
  return parts;
}

} // namespace

ConfinedTarget ConfinedTarget::of(const ResolvedPath& where) {
  ConfinedTarget target;
  target.anchor = where.root;
  target.real_path = where.real_path;
  auto slash = where.relative.rfind('/');
  if (slash == std::string::npos) {
    target.name = where.relative;
  } else {
    target.relative_dir = where.relative.substr(0, slash);
    target.name = where.relative.substr(slash + 1);
  }
  return target;
}

std::string ConfinedTarget::dirPath() const {
  return joinPath(anchor, relative_dir);
}

Error confinedError(int err, int dir_fd, const std::string& name, std::string_view what,
                    const std::string& shown_path) {
  struct stat entry {};
  if ((err == ELOOP || err == ENOTDIR) &&
      ::fstatat(dir_fd, name.c_str(), &entry, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(entry.st_mode)) {
    Error error = Error::make(ErrorCode::OutsideWorkspace,
                              shown_path + " is a symbolic link now; it was not one when the path "
                                           "was checked, so nothing was done through it");
    error.withHint("something is swapping files or directories inside the workspace for "
                   "symlinks; re-read the file and retry once it has stopped");
    error.data.path = shown_path;
    return error;
  }
  return systemError(err, what, shown_path);
}

Result<ConfinedDir> ConfinedDir::open(const std::string& anchor, std::string_view relative_dir,
                                      Missing missing) {
  if (anchor.empty() || anchor.front() != '/')
    return Error::make(ErrorCode::IoError, "the anchor '" + anchor + "' is not an absolute path");
  UniqueFd current(platform::openDirectory(platform::kInvalidHandle, anchor.c_str(),
                                           platform::FinalSymlink::Follow));
  if (!current) return systemError(errno, "open directory", anchor);

  std::string path = anchor;
  std::vector<Made> made;
  for (std::string_view part : componentsOf(relative_dir)) {
    std::string name(part);
    if (name.empty() || name == "." || name == "..")
      return Error::make(ErrorCode::IoError, "'" + std::string(relative_dir) + "' below " + anchor +
                                                 " is not a canonical relative path");
    std::string child_path = joinPath(path, name);
    UniqueFd child(openDirectoryAt(current.get(), name.c_str()));
    bool created = false;
    if (!child && errno == ENOENT && missing == Missing::Create) {
      if (::mkdirat(current.get(), name.c_str(), 0777) == 0)
        created = true;
      else if (errno != EEXIST)
        return systemError(errno, "mkdir", child_path);
      child.reset(openDirectoryAt(current.get(), name.c_str()));
    }
    if (!child) return confinedError(errno, current.get(), name, "open directory", child_path);
    if (created) made.push_back(Made{std::move(current), name});
    current = std::move(child);
    path = std::move(child_path);
  }
  return ConfinedDir(std::move(current), std::move(path), std::move(made));
}

ConfinedDir::ConfinedDir(ConfinedDir&& other) noexcept
    : fd_(std::move(other.fd_)), path_(std::move(other.path_)),
      made_(std::exchange(other.made_, {})), keep_created_(other.keep_created_) {}

ConfinedDir::~ConfinedDir() {
  if (keep_created_) return;
  fd_.reset();
  for (auto it = made_.rbegin(); it != made_.rend(); ++it)
    (void)::unlinkat(it->parent.get(), it->name.c_str(), AT_REMOVEDIR);
}

void ConfinedDir::syncCreated() const {
  for (const Made& made : made_)
    while (::fsync(made.parent.get()) != 0 && errno == EINTR) {
    }
}

} // namespace hashline::disk
