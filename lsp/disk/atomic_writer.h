// Atomic file operations of the disk backend (DESIGN §6): replace, create, delete and move, each
// all-or-nothing, each re-checking the caller's fingerprint at the last moment.
//
// A replace writes the new bytes to a temp file in the target's directory (TempFile: unnamed
// O_TMPFILE, or an O_EXCL named temp where unsupported), fsyncs it, gives it the target's mode
// (and owner, when we may), then — under the target's FileLock — re-reads the target and compares
// it with `expected` (STALE_VERSION and nothing written on a mismatch), renames the temp over the
// target and fsyncs the directory. Killed at any instant, the target holds wholly the old or
// wholly the new bytes; a temp left by a kill is swept on the next write to that directory.
// Every failure path removes what it made. The bytes are written exactly as given: line endings,
// BOM and final newline are the engine's business, never changed here.
//
// A replace gives the path a new inode (that is what makes it atomic): the mode, owner (when
// permitted) and extended attributes (ACLs, SELinux label) are carried over, but other hard
// links to the old inode keep the old content, as with most editors' save.
//
// Confined forms take a ResolvedPath (WorkspaceRoots::resolve: a canonical path below a root):
// the directory is opened from the root's descriptor component by component without following
// a symlink (ConfinedDir), and every check, temp, link, rename and unlink happens relative to
// that descriptor. A directory swapped for a symlink after the path was confined is refused
// (OUTSIDE_WORKSPACE), never written through. The string forms, for files of our own (state and
// runtime directories), resolve the path with realpath first — a relative path against the
// current directory, a symlink to its target (the link stays a link) — and then walk it the same
// way from "/".
//
// Callers: the disk workspace backend (edits, patches, undo), the CLI in-process mode, the
// journal's compaction, discovery files and session observations (atomicWrite).
// Thread-safe: operations on different files run in parallel; on the same file they serialize
// through FileLock (across processes too).
#pragma once

#include "engine/support/result.h"
#include "lsp/disk/fingerprint.h"
#include "lsp/disk/workspace_roots.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace hashline::disk {

/// WriteOptions::before_publish, handed by a journal to the write it records.
using PublishGate = std::function<Status()>;

/// Points of an atomic write, in order, as reported to WriteOptions::on_phase.
enum class WritePhase {
  TempCreated,     // temp exists, empty (unnamed when O_TMPFILE)
  TempWritten,     // bytes, mode and owner in place
  TempSynced,      // fsync'ed; the lock is taken next
  TempNamed,       // linked under its temp name (replace only)
  Checked,         // fingerprint re-checked; publication is next
  Published,       // the new content is visible under the target name
  DirectorySynced, // the rename/link is durable
};

struct WriteOptions {
  /// What the caller read: the operation happens only if the file still has this content
  /// (fingerprint equality = content equality). nullopt = unconditional.
  std::optional<Fingerprint> expected;
  /// Prefer an unnamed O_TMPFILE; false forces the named-temp fallback.
  bool use_tmpfile = true;
  /// Take the FileLock of each path for check + publication; false when the caller already
  /// holds it (a second FileLock on the same file would wait for the first).
  bool take_lock = true;
  /// Permission bits of a file that is created (the umask applies); a replace keeps the old ones.
  mode_t create_mode = 0666;
  /// fsync the temp before publication and the directory after it. False for files that are a
  /// cache of our own (session observations, discovery files): still all-or-nothing against a
  /// kill, but an OS crash may lose the write (the reader then finds the old file, or one that
  /// fails to decode and counts as absent). Never false for a user's file or the journal.
  bool durable = true;
  /// Called once, right before the new content becomes visible (after the temp is synced and
  /// `expected` re-checked, under the lock): the journal waits there for its intent record to be
  /// durable, so that fsync runs beside the temp's write and fsync instead of before them. A
  /// failure aborts with nothing published.
  std::function<Status()> before_publish;
  /// For tests: called at every phase. A failed Status before publication aborts there, like an
  /// I/O error would; after publication it is ignored (the write has happened).
  std::function<Status(WritePhase)> on_phase;
};

struct WriteResult {
  std::string path;             // canonical path written (a symlink's target)
  Fingerprint fingerprint;      // of the new content, as published
  bool used_tmpfile = false;    // whether the unnamed O_TMPFILE path was taken
  bool directory_synced = true; // false when the final directory fsync failed (still applied)
                                // or was skipped (WriteOptions::durable false)
};

/// Replaces the existing regular file at `where` with `bytes`. Errors: FILE_NOT_FOUND (missing
/// and no `expected`), STALE_VERSION (content differs from `expected`, or the file is gone),
/// OUTSIDE_WORKSPACE (a directory on the path became a symlink), IO_ERROR. The file's mode is
/// kept (owner too, when running as root).
Result<WriteResult> atomicReplace(const ResolvedPath& where, std::string_view bytes,
                                  const WriteOptions& options = {});
Result<WriteResult> atomicReplace(const std::string& path, std::string_view bytes,
                                  const WriteOptions& options = {});

/// Creates `where` with `bytes`; nothing may exist there (STALE_VERSION if something does, even
/// if it appears during the write: publication is no-replace). Missing parent directories are
/// made (and removed again if the create fails). Mode: options.create_mode minus the umask.
/// `expected` is ignored.
Result<WriteResult> atomicCreate(const ResolvedPath& where, std::string_view bytes,
                                 const WriteOptions& options = {});
Result<WriteResult> atomicCreate(const std::string& path, std::string_view bytes,
                                 const WriteOptions& options = {});

/// Deletes the regular file at `where` if it still matches `expected`. Errors: FILE_NOT_FOUND,
/// STALE_VERSION, OUTSIDE_WORKSPACE, IO_ERROR.
Status atomicDelete(const ResolvedPath& where, const WriteOptions& options = {});
Status atomicDelete(const std::string& path, const WriteOptions& options = {});

/// Moves `from` to the new path `to` with content `bytes` (a patch's "Move to" with edits):
/// `to` is published no-replace, then `from` removed; `expected` guards `from`. Each step is
/// atomic; if removing `from` fails, `to` is removed again. A crash between the two steps can
/// leave both (never neither). `from`'s mode is kept.
Result<WriteResult> atomicMove(const ResolvedPath& from, const ResolvedPath& to,
                               std::string_view bytes, const WriteOptions& options = {});
Result<WriteResult> atomicMove(const std::string& from, const std::string& to,
                               std::string_view bytes, const WriteOptions& options = {});

/// Replace-or-create, unconditionally (`expected` is ignored): the one atomic write for files of
/// our own (journal compaction, discovery files, observations).
Result<WriteResult> atomicWrite(const std::string& path, std::string_view bytes,
                                const WriteOptions& options = {});

} // namespace hashline::disk
