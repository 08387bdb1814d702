// The OS calls behind atomic replace (disk/temp_file.cpp, disk/atomic_writer.cpp,
// disk/confined_dir.cpp): Linux has unnamed temp files (O_TMPFILE, published with linkat),
// metadata-only handles (O_PATH), renameat2(RENAME_NOREPLACE) and extended attributes through
// /proc; macOS has renameatx_np(RENAME_EXCL), fcopyfile and no unnamed files; the portable
// build takes the macOS-shaped paths that Linux can run (named temps, plain descriptors,
// flistxattr). Callers fall back on EOPNOTSUPP (no unnamed file) and ENOSYS (no no-replace
// rename).
// Errors are errno values. Windows seam: CreateFileW + MoveFileExW / SetFileInformationByHandle.
#pragma once

#include "lsp/platform/native_handle.h"

namespace hashline::platform {

/// An unnamed file in the directory open as `dir`, read/write, close-on-exec, with permission
/// bits `mode` (the umask applies); kInvalidHandle with errno set on failure, errno EOPNOTSUPP
/// where this OS or build has no unnamed files (the caller makes a named temp).
FileHandle createUnnamedFile(FileHandle dir, unsigned mode);
/// Gives an unnamed file the name `name` in `dir`: 0 or an errno (EEXIST: the name exists).
/// Linux links through /proc/self/fd; where that fails for want of a usable /proc (none in a
/// chroot or container, or an odd one), through the descriptor (AT_EMPTY_PATH). EOPNOTSUPP when
/// neither can: the caller moves the bytes to a named temp, and from then on this process's
/// createUnnamedFile says EOPNOTSUPP (named temps only).
int linkUnnamedFile(FileHandle file, FileHandle dir, const char* name);
/// Tests force the named fallback with this (true: as after a link neither way could make;
/// false: back to normal).
void refuseUnnamedLinks(bool refused);
/// Renames `from` to `to` in `dir` only when `to` does not exist: 0 or an errno (EEXIST: it
/// does; ENOSYS, EINVAL or EOPNOTSUPP: this OS or filesystem cannot, link + unlink instead).
int renameNoReplace(FileHandle dir, const char* from, const char* to);
/// Opens entry `name` of `dir` without following a final symlink, for fstat and extended
/// attributes only: whatever its permission bits on Linux (O_PATH); elsewhere read-only, else
/// write-only (a write-only file), else kInvalidHandle with errno (a file of mode 000).
/// On a symlink the Linux handle is the link itself; elsewhere the call fails with ELOOP.
FileHandle openForMetadata(FileHandle dir, const char* name);
enum class FinalSymlink { Refuse, Follow };
/// Opens directory `name` of `dir` (a path from the current directory when `dir` is
/// kInvalidHandle): readable when we may read it, else, where the OS has one, a search-only
/// handle (O_PATH on Linux, O_SEARCH on macOS 13+) that serves every *at call. A final symlink
/// is refused (ELOOP/ENOTDIR) unless `final_symlink` is Follow.
FileHandle openDirectory(FileHandle dir, const char* name,
                         FinalSymlink final_symlink = FinalSymlink::Refuse);
/// Copies the extended attributes (Linux: POSIX ACLs, SELinux label, user.*; macOS: xattrs and
/// the ACL) of `from` (any handle from openForMetadata) to `to`, best effort.
void copyExtendedAttributes(FileHandle from, FileHandle to);

} // namespace hashline::platform
