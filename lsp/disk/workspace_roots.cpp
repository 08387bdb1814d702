// Path resolution (realpath, plus a walk up to the nearest existing ancestor for new files) and
// confinement to the workspace roots.
#include "lsp/disk/workspace_roots.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

constexpr int kMaxSymlinkHops = 40; // as the kernel's ELOOP limit

Error pathError(int err, std::string_view path) {
  ErrorCode code = (err == ENOENT || err == ENOTDIR) ? ErrorCode::FileNotFound : ErrorCode::IoError;
  Error error = Error::make(code, std::string(path) + ": " + std::strerror(err));
  error.data.path = std::string(path);
  return error;
}

std::string parentOf(const std::string& canonical) {
  auto slash = canonical.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : canonical.substr(0, slash);
}

std::string joinPath(const std::string& dir, std::string_view name) {
  std::string joined = dir;
  if (joined.empty() || joined.back() != '/') joined += '/';
  joined += name;
  return joined;
}

// `absolute` starts with '/'. Follows dangling symlinks and missing components by hand where
// realpath(3) gives up with ENOENT.
Result<std::string> resolveAbsolute(std::string absolute, int hops) {
  if (hops > kMaxSymlinkHops) return pathError(ELOOP, absolute);
  char buffer[PATH_MAX];
  if (::realpath(absolute.c_str(), buffer)) return std::string(buffer);
  int err = errno;
  if (err != ENOENT) return pathError(err, absolute);

  while (absolute.size() > 1 && absolute.back() == '/')
    absolute.pop_back();
  auto slash = absolute.rfind('/');
  std::string parent = slash == 0 ? "/" : absolute.substr(0, slash);
  std::string name = absolute.substr(slash + 1);

  struct stat link_stat {};
  if (::lstat(absolute.c_str(), &link_stat) == 0 && S_ISLNK(link_stat.st_mode)) {
    // A dangling symlink: a new file is created where it points, so confine that place.
    std::string target(static_cast<std::size_t>(link_stat.st_size) + 1, '\0');
    ssize_t length = ::readlink(absolute.c_str(), target.data(), target.size());
    if (length < 0) return pathError(errno, absolute);
    target.resize(static_cast<std::size_t>(length));
    if (target.empty()) return pathError(ENOENT, absolute);
    if (target.front() != '/') target = joinPath(parent, target);
    return resolveAbsolute(std::move(target), hops + 1);
  }

  auto resolved_parent = resolveAbsolute(parent, hops);
  if (!resolved_parent) return resolved_parent;
  if (name.empty() || name == ".") return resolved_parent;
  // The parent is canonical (no symlinks), so `..` of it is its lexical parent.
  if (name == "..") return parentOf(*resolved_parent);
  return joinPath(*resolved_parent, name);
}

} // namespace

Result<std::string> currentDirectory() {
  char buffer[PATH_MAX];
  if (!::getcwd(buffer, sizeof buffer)) return pathError(errno, ".");
  return std::string(buffer);
}

Result<std::string> resolveRealPath(std::string_view path, std::string_view base_dir) {
  if (path.empty()) return Error::make(ErrorCode::FileNotFound, "empty path");
  if (path.find('\0') != std::string_view::npos || base_dir.find('\0') != std::string_view::npos)
    return Error::make(ErrorCode::FileNotFound, "path contains a NUL byte");
  std::string absolute;
  if (path.front() == '/') {
    absolute = std::string(path);
  } else {
    if (base_dir.empty() || base_dir.front() != '/')
      return Error::make(ErrorCode::IoError,
                         "relative path '" + std::string(path) + "' needs an absolute base");
    absolute = joinPath(std::string(base_dir), path);
  }
  return resolveAbsolute(std::move(absolute), 0);
}

bool isSameOrBelow(std::string_view path, std::string_view dir) {
  if (dir == "/") return !path.empty() && path.front() == '/';
  if (path.size() < dir.size() || path.substr(0, dir.size()) != dir) return false;
  return path.size() == dir.size() || path[dir.size()] == '/';
}

Result<WorkspaceRoots> WorkspaceRoots::make(const std::vector<std::string>& roots) {
  auto cwd = currentDirectory();
  std::vector<std::string> canonical;
  for (const auto& root : roots) {
    auto resolved = resolveRealPath(root, cwd ? std::string_view(*cwd) : std::string_view("/"));
    if (!resolved) return std::move(resolved).error();
    struct stat root_stat {};
    if (::stat(resolved->c_str(), &root_stat) != 0) return pathError(errno, root);
    if (!S_ISDIR(root_stat.st_mode)) return pathError(ENOTDIR, root);
    if (std::find(canonical.begin(), canonical.end(), *resolved) == canonical.end())
      canonical.push_back(std::move(*resolved));
  }
  return WorkspaceRoots(std::move(canonical));
}

std::optional<std::string> WorkspaceRoots::rootOf(std::string_view real_path) const {
  const std::string* deepest = nullptr;
  for (const auto& root : roots_)
    if (isSameOrBelow(real_path, root) && (!deepest || root.size() > deepest->size()))
      deepest = &root;
  if (!deepest) return std::nullopt;
  return *deepest;
}

Result<ResolvedPath> WorkspaceRoots::resolve(std::string_view path,
                                             std::string_view base_dir) const {
  auto real_path = resolveRealPath(path, base_dir);
  if (!real_path) return std::move(real_path).error();
  auto root = rootOf(*real_path);
  if (!root) {
    std::string listed;
    for (const auto& r : roots_)
      listed += (listed.empty() ? "" : ", ") + r;
    Error error = Error::make(ErrorCode::OutsideWorkspace,
                              std::string(path) + " resolves to " + *real_path +
                                  ", outside the workspace roots (" + listed + ")");
    error.data.path = std::string(path);
    return error;
  }
  ResolvedPath resolved;
  resolved.real_path = std::move(*real_path);
  resolved.root = *root;
  resolved.relative = resolved.real_path.size() == root->size()
                          ? std::string()
                          : resolved.real_path.substr(root->size() == 1 ? 1 : root->size() + 1);
  struct stat file_stat {};
  resolved.exists = ::lstat(resolved.real_path.c_str(), &file_stat) == 0;
  return resolved;
}

Result<ResolvedPath> WorkspaceRoots::resolve(std::string_view path) const {
  if (!path.empty() && path.front() == '/') return resolve(path, "/");
  auto cwd = currentDirectory();
  if (!cwd) return std::move(cwd).error();
  return resolve(path, *cwd);
}

} // namespace hashline::disk
