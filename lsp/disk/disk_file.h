// Reading files from disk for the disk backend: the exact bytes plus their fingerprint.
//
// `readTextFile` is what the backend reads before anchoring or editing a file that no editor has
// open. Text means: no NUL byte and valid UTF-8 throughout (a BOM is fine). Anything else is
// refused with NOT_TEXT and never decoded lossily, so it can never be rewritten with U+FFFD.
// A missing file is FILE_NOT_FOUND; every other failure is IO_ERROR carrying the errno text.
// The bytes are returned untouched (CRLF, lone CR, BOM, missing final newline); callers build a
// hashline::Rope from them.
//
// The ResolvedPath forms read through ConfinedDir (no symlink followed below the root, the file
// itself opened O_NOFOLLOW), so a path swapped after it was confined cannot make them read
// outside the workspace; the string forms open the path as given (the state directory's files).
//
// The snapshot is consistent: the file is stat'ed before and after the read, and re-read when it
// changed meanwhile, so bytes and fingerprint describe the same version. Thread-safe.
#pragma once

#include "engine/support/result.h"
#include "lsp/disk/fingerprint.h"
#include "lsp/disk/workspace_roots.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace hashline::disk {

/// Files larger than this are refused with IO_ERROR rather than read into memory.
inline constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 30;

struct FileSnapshot {
  std::string path;  // as given
  std::string bytes; // exact content
  Fingerprint fingerprint;
};

/// Any regular file's bytes. FILE_NOT_FOUND when missing; IO_ERROR for directories, devices,
/// permission problems and files over kMaxFileBytes.
Result<FileSnapshot> readFileBytes(const std::string& path);

/// readFileBytes, then NOT_TEXT unless the bytes are text (see checkText).
Result<FileSnapshot> readTextFile(const std::string& path);

/// The file entry `name` in the directory open as `dir_fd`, never through a symlink (a symlink
/// there is the OUTSIDE_WORKSPACE refusal of confinedError). `shown_path` names it in errors.
Result<FileSnapshot> readFileBytesAt(int dir_fd, const std::string& name,
                                     const std::string& shown_path);
/// The fingerprint of the file entry `name` (as readFileBytesAt(...).fingerprint), read in blocks
/// and hashed as it goes: no copy of the whole file is made.
Result<Fingerprint> fingerprintFileAt(int dir_fd, const std::string& name,
                                      const std::string& shown_path);
/// A confined file's bytes: its directory opened with ConfinedDir, then readFileBytesAt.
Result<FileSnapshot> readFileBytes(const ResolvedPath& where);
/// readFileBytes(where), then NOT_TEXT unless the bytes are text.
Result<FileSnapshot> readTextFile(const ResolvedPath& where);
/// The current fingerprint of confined `where`, or nullopt when no file is there.
Result<std::optional<Fingerprint>> currentFingerprint(const ResolvedPath& where);

/// The current fingerprint of `path`, or nullopt when no file is there.
Result<std::optional<Fingerprint>> currentFingerprint(const std::string& path);

/// NOT_TEXT naming the first offending byte offset when `bytes` holds a NUL byte or is not
/// valid UTF-8 (overlong forms, surrogates and code points past U+10FFFF are invalid).
Status checkText(std::string_view bytes, std::string_view path);

/// Byte offset of the first byte that breaks UTF-8 validity, or nullopt when valid.
std::optional<std::size_t> firstInvalidUtf8(std::string_view bytes);

/// An IO_ERROR (or FILE_NOT_FOUND for ENOENT/ENOTDIR) for a failed system call on `path`.
Error systemError(int err, std::string_view what, std::string_view path);

} // namespace hashline::disk
