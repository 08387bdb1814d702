// Reading files from disk for the disk backend: the exact bytes plus their fingerprint.
//
// `readTextFile` is what the backend reads before anchoring or editing a file that no editor has
// open. Text means: no NUL byte and valid UTF-8 throughout (a BOM is fine). Anything else is
// refused with NOT_TEXT and never decoded lossily, so it can never be rewritten with U+FFFD.
// A missing file is FILE_NOT_FOUND; every other failure is IO_ERROR carrying the errno text.
// The bytes are returned untouched (CRLF, lone CR, BOM, missing final newline); callers build a
// hashline::Rope from them.
//
// The snapshot is consistent: the file is stat'ed before and after the read, and re-read when it
// changed meanwhile, so bytes and fingerprint describe the same version. Thread-safe.
#pragma once

#include "engine/support/result.h"
#include "lsp/disk/fingerprint.h"

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
