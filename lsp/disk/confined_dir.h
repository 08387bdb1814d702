// ConfinedDir: a directory opened below a trusted anchor without following any symlink, so that
// every operation done relative to its descriptor lands where confinement said it would.
//
// Confinement (WorkspaceRoots) resolves a path string once. A process that swaps a directory on
// that path for a symlink afterwards must not be able to redirect the write, so lsp/disk never
// reopens a checked path by name: it opens the anchor (a workspace root, trusted like its
// ancestors), then each component of the canonical path below it with
// openat(O_NOFOLLOW | O_DIRECTORY), and does every stat, read, temp creation, link, rename and
// unlink relative to the descriptor it ends with. A component that is a symlink by then (it was
// a directory when the path was resolved) is refused with OUTSIDE_WORKSPACE and nothing is
// touched. openat2(RESOLVE_BENEATH) would do the same in one call on kernels that have it; the
// component walk works everywhere and is the only code path, so it is the one tested.
//
// Missing directories can be made on the way (a new file's parents): mkdirat under the parent's
// descriptor, then the same no-follow open. They are removed again on destruction unless the
// caller keeps them (keepCreated). Move-only; one thread at a time.
#pragma once

#include "engine/support/result.h"
#include "lsp/disk/unique_fd.h"
#include "lsp/disk/workspace_roots.h"

#include <string>
#include <string_view>
#include <vector>

namespace hashline::disk {

/// A resolved file's place for the disk layer: the anchor (its root), the directory below it and
/// the entry name. `name` is empty when the path is the root itself.
struct ConfinedTarget {
  std::string anchor;       // canonical absolute directory everything is opened from
  std::string relative_dir; // canonical, below anchor; "" = the anchor itself
  std::string name;         // entry in that directory
  std::string real_path;    // anchor/relative_dir/name, for messages and lock names

  static ConfinedTarget of(const ResolvedPath& where);
  /// The directory's full path (anchor/relative_dir).
  std::string dirPath() const;
};

class ConfinedDir {
public:
  enum class Missing { Fail, Create };

  /// Opens `relative_dir` (canonical: no "", "." or ".." components) below `anchor`, one
  /// component at a time, never following a symlink. Errors: OUTSIDE_WORKSPACE (a component is
  /// a symlink), FILE_NOT_FOUND (missing and not created, or not a directory), IO_ERROR.
  static Result<ConfinedDir> open(const std::string& anchor, std::string_view relative_dir,
                                  Missing missing = Missing::Fail);
  /// The directory holding `target`.
  static Result<ConfinedDir> openParent(const ConfinedTarget& target,
                                        Missing missing = Missing::Fail) {
    return open(target.anchor, target.relative_dir, missing);
  }

  ConfinedDir(ConfinedDir&& other) noexcept;
  ConfinedDir& operator=(ConfinedDir&&) = delete;
  ConfinedDir(const ConfinedDir&) = delete;
  ~ConfinedDir();

  int fd() const { return fd_.get(); }
  /// Full path, for messages.
  const std::string& path() const { return path_; }

  /// Keeps the directories open() made (by default they are removed again on destruction).
  void keepCreated() { keep_created_ = true; }
  /// fsyncs the parents of the directories open() made, so their entries are durable.
  void syncCreated() const;

private:
  struct Made {
    UniqueFd parent;
    std::string name;
  };
  ConfinedDir(UniqueFd fd, std::string path, std::vector<Made> made)
      : fd_(std::move(fd)), path_(std::move(path)), made_(std::move(made)) {}

  UniqueFd fd_;
  std::string path_;
  std::vector<Made> made_; // outermost first
  bool keep_created_ = false;
};

/// An error for a failed *at call on `name` in `dir` (ELOOP and a symlink there: the
/// OUTSIDE_WORKSPACE refusal of a swapped path; otherwise systemError).
Error confinedError(int err, int dir_fd, const std::string& name, std::string_view what,
                    const std::string& shown_path);

} // namespace hashline::disk
