// TempFile: the not-yet-published new content of a file, in the target's own directory (so the
// final rename stays on one filesystem and is atomic).
//
// Preferred form: an unnamed O_TMPFILE inode. Until it is linked it has no name, so a crash at
// any moment before publication leaves nothing behind — the kernel frees it. Just before
// publication it is linked under a unique temp name (rename needs a name) and renamed over the
// target, or, for a new file, linked straight to the target name (atomic and no-replace).
// Fallback where the filesystem lacks O_TMPFILE: a named temp created exclusively (O_EXCL)
// beside the target. Where the process cannot link an unnamed file (no usable /proc and no
// AT_EMPTY_PATH: a chroot without /proc on an older kernel), the first such temp moves its bytes,
// mode, owner and attributes to a named temp when it is published, and the process makes named
// temps from then on (platform::linkUnnamedFile).
//
// Every temp name starts with kTempPrefix, and its inode is flock'ed by the writer for as long as
// the name exists. A crash between naming and publication leaves a named temp whose lock died
// with its writer; `sweepStaleTemps` removes exactly those (a live writer's temp stays locked).
// Each directory is swept once per process (`sweepStaleTempsOnce`): when the disk backend first
// reads or writes a file there, when a sidecar or a disk-mode CLI starts (its roots), and before
// the atomic writer's first write there.
//
// Used only by atomic_writer.cpp. One TempFile per write; not shared between threads.
#pragma once

#include "engine/support/result.h"
#include "lsp/disk/unique_fd.h"
#include "lsp/disk/workspace_roots.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <sys/types.h>

namespace hashline::disk {

/// Names of temps made by hashline start with this.
inline constexpr std::string_view kTempPrefix = ".hashline-tmp.";

bool isTempName(std::string_view file_name);

/// Removes temps of ours in `dir` whose writer is gone (their flock is free). Returns how many
/// were removed. Other files, and temps of live writers, are never touched.
std::size_t sweepStaleTemps(const std::string& dir);
/// The same for the directory open as `dir_fd` (any descriptor of it, O_PATH too).
std::size_t sweepStaleTempsAt(int dir_fd);

/// sweepStaleTempsAt(dir_fd) the first time this process sees that directory (by device and
/// inode); later calls cost one fstat.
void sweepStaleTempsOnce(int dir_fd);
/// The same by path (opened without following a final symlink); a missing directory is skipped.
void sweepStaleTempsOnce(const std::string& dir);
/// The same for the directory holding confined `file`, opened through ConfinedDir (no symlink
/// followed below its root); a missing directory is skipped.
void sweepStaleTempsBeside(const ResolvedPath& file);

class TempFile {
public:
  /// A temp in the directory open as `dir_fd` (path `dir`, for messages), for the entry named
  /// `target_name`, created with `mode` (the umask applies). `use_tmpfile` = false forces the
  /// named fallback.
  static Result<TempFile> create(int dir_fd, const std::string& dir, std::string_view target_name,
                                 mode_t mode, bool use_tmpfile);

  TempFile(TempFile&& other) noexcept;
  TempFile& operator=(TempFile&&) = delete;
  TempFile(const TempFile&) = delete;
  ~TempFile() { discard(); }

  /// All of `bytes`, exactly.
  Status write(std::string_view bytes);
  /// Gives the temp the permission bits of `original` and, where allowed, its owner and group.
  Status copyOwnerAndMode(const struct stat& original);
  /// Copies the extended attributes (POSIX ACLs, SELinux label, user.*) of the file open as
  /// `original_fd` (any descriptor, O_PATH too), best effort: attributes the filesystem or our
  /// privileges refuse are skipped.
  void copyExtendedAttributes(int original_fd);
  /// fsync: the content is durable before anyone can see it under the target name.
  Status sync();
  /// Gives an unnamed temp its temp name (no-op for a named temp).
  Status name();
  /// Atomically replaces `target_name` with the temp (rename). Requires name().
  Status renameOver(std::string_view target_name);
  /// Publishes the temp as `target_name` only if nothing is there: EEXIST becomes
  /// STALE_VERSION. For an unnamed temp call this instead of name().
  Status publishNew(std::string_view target_name);
  /// Unlinks a temp name still held and closes; safe to call twice.
  void discard();

  bool unnamed() const { return is_tmpfile_; }
  int fd() const { return fd_.get(); }

private:
  TempFile(int dir_fd, std::string dir, std::string_view target_name, UniqueFd fd, bool is_tmpfile,
           std::string temp_name)
      : dir_fd_(dir_fd), dir_(std::move(dir)), target_name_(target_name), fd_(std::move(fd)),
        is_tmpfile_(is_tmpfile), temp_name_(std::move(temp_name)) {}
  // A named temp (created O_EXCL, flock'ed) and its name in `*name`.
  static Result<UniqueFd> createNamed(int dir_fd, const std::string& dir,
                                      std::string_view target_name, mode_t mode, std::string* name);
  // linkat of the unnamed inode to `link_name`; 0 or an errno.
  int linkAs(const std::string& link_name);
  // The unnamed temp cannot be linked: its bytes, owner, mode and attributes (and its fsync)
  // go to a named temp, which replaces it.
  Status becomeNamed();
  std::string pathOf(std::string_view name) const { return dir_ + "/" + std::string(name); }

  int dir_fd_ = -1; // borrowed
  std::string dir_;
  std::string target_name_; // names temps after their target, for people listing the directory
  UniqueFd fd_;
  bool is_tmpfile_ = false;
  bool synced_ = false;   // sync() was called: a named copy is synced too
  std::string temp_name_; // the name while one exists; empty when unnamed or published
};

} // namespace hashline::disk
