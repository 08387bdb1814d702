// Workspace roots: where the disk backend may read and write, and how a user's path becomes the
// canonical path of the file it names.
//
// Every path an agent sends is resolved with realpath semantics (symlinks followed, `.` and `..`
// applied to the real directory, not lexically) and must land inside one of the roots, else
// OUTSIDE_WORKSPACE. A symlink inside the workspace that points inside is fine; one that points
// out is an escape and is refused. A path that does not exist yet (a file about to be created) is
// resolved through its nearest existing ancestor (a dangling symlink is followed to where it
// points) and the missing rest is appended, so a new file is confined exactly like an old one.
//
// Called by the CLI, MCP and agent-socket layers before any disk access, and by the atomic writer
// to find the real target of a symlinked path. Resolution is a check of a moment: the disk layer
// never reopens the resolved string, it walks `root` + `relative` with ConfinedDir, so a path
// swapped for a symlink afterwards is refused rather than followed. Stateless apart from the root
// list; safe to share between threads.
#pragma once

#include "engine/support/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::disk {

/// Canonical absolute path of `path` (a relative path is taken against `base_dir`, which must be
/// absolute). Symlinks are resolved; for a path that does not exist, the nearest existing ancestor
/// is resolved and the missing components appended (`..` among them pops a component).
/// Errors: FILE_NOT_FOUND (empty path, a NUL byte, a non-directory used as a directory),
/// IO_ERROR (permission denied, symlink loop, ...).
Result<std::string> resolveRealPath(std::string_view path, std::string_view base_dir);

/// The process's current directory, for resolving relative paths.
Result<std::string> currentDirectory();

/// True when canonical `path` is `dir` itself or lies below it (both canonical, absolute).
bool isSameOrBelow(std::string_view path, std::string_view dir);

/// A path resolved and confined to a root.
struct ResolvedPath {
  std::string real_path; // canonical absolute path of the file
  std::string root;      // canonical root holding it (the deepest when roots nest)
  std::string relative;  // real_path relative to root; "" for the root itself
  bool exists = false;   // whether real_path existed at resolution time
};

class WorkspaceRoots {
public:
  /// Roots are resolved with realpath; each must exist and be a directory (FILE_NOT_FOUND /
  /// IO_ERROR otherwise). Duplicates are dropped.
  static Result<WorkspaceRoots> make(const std::vector<std::string>& roots);

  /// Canonical roots, in the order given.
  const std::vector<std::string>& roots() const { return roots_; }

  /// Resolves `path` (relative to `base_dir`, or to the current directory) and confines it.
  /// Errors: OUTSIDE_WORKSPACE, plus those of resolveRealPath.
  Result<ResolvedPath> resolve(std::string_view path, std::string_view base_dir) const;
  Result<ResolvedPath> resolve(std::string_view path) const;

  /// The deepest root holding canonical `real_path`, if any.
  std::optional<std::string> rootOf(std::string_view real_path) const;

private:
  explicit WorkspaceRoots(std::vector<std::string> roots) : roots_(std::move(roots)) {}
  std::vector<std::string> roots_;
};

} // namespace hashline::disk
